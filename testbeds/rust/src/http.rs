//! The Streamable HTTP side of the test bed (testbeds/PROGRAM.md, "Streamable HTTP"): rmcp's own
//! `StreamableHttpService` (a tower service) served by hyper on 127.0.0.1 only, one mode per
//! process. The side channel stays on stderr; SIGTERM's default action ends the process.

use std::sync::Arc;

use hyper_util::{rt::TokioIo, service::TowerToHyperService};
use rmcp::{
    ServerHandler,
    transport::streamable_http_server::{
        StreamableHttpService, session::local::LocalSessionManager,
    },
};

use crate::sdk;

/// A mode of `--mode`: `stateful-sse`, `stateful-json`, `stateless-sse` or `stateless-json`.
pub struct Mode {
    pub sessions: bool,
    pub json_response: bool,
}

impl Mode {
    pub fn parse(name: &str) -> Option<Mode> {
        let (state, body) = name.split_once('-')?;
        let sessions = match state {
            "stateful" => true,
            "stateless" => false,
            _ => return None,
        };
        let json_response = match body {
            "sse" => false,
            "json" => true,
            _ => return None,
        };
        // rmcp applies json_response only without sessions (a session's POST always answers
        // with an SSE stream): stateful-json is not a mode it offers, so say so, never fall back.
        if sessions && json_response {
            return None;
        }
        Some(Mode {
            sessions,
            json_response,
        })
    }
}

/// Serves the test bed's layer that `new` makes (one per session, or per stateless request) on
/// 127.0.0.1:`port` until the process is ended.
pub async fn serve<S: ServerHandler + Send + 'static>(
    port: u16,
    mode: Mode,
    new: impl Fn() -> S + Send + Sync + 'static,
) -> std::io::Result<()> {
    let service = StreamableHttpService::new(
        move || Ok(new()),
        Arc::new(LocalSessionManager::default()),
        sdk::http_config(mode.sessions, mode.json_response),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            // A connection's error (the client hung up mid-stream) ends that connection only.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
