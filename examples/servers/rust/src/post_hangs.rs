//! `post-hangs` (HTTP only): seed 004's bug, in a hand-written Streamable HTTP endpoint.
//!
//! The author wanted plain `application/json` answers behind their own axum route, so instead
//! of rmcp's `StreamableHttpService` they bridge each POST into one rmcp server over an
//! in-process pipe: a request's POST parks a waiter under its JSON-RPC id, and the task that
//! reads the server's output resumes the waiter when a response with that id comes out. The
//! tool is the correct one. But rmcp rightly writes no response for a cancelled request, and
//! nothing else resumes the waiter, so after `notifications/cancelled` the request's POST
//! never completes (the Swift SDK's `StatelessHTTPServerTransport` had exactly this).
//! A second request reusing an in-flight id replaces the first one's waiter, whose POST then
//! ends with a bare 500.

use std::{collections::HashMap, error::Error, sync::Arc};

use axum::{
    Router,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::post,
};
use rmcp::{
    ServiceExt,
    serde_json::{self, Value},
};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf},
    sync::{Mutex, oneshot},
};

use crate::correct::Correct;

/// POSTs waiting for their response, by JSON-RPC id (as JSON text).
type Waiters = Arc<Mutex<HashMap<String, oneshot::Sender<String>>>>;

struct Bridge {
    to_server: Mutex<WriteHalf<DuplexStream>>,
    waiters: Waiters,
}

/// Serves `/mcp` on 127.0.0.1:`port` until the process is stopped.
pub async fn serve(port: u16) -> Result<(), Box<dyn Error>> {
    let (server_io, bridge_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(service) = Correct::new().serve(server_io).await {
            let _ = service.waiting().await;
        }
    });
    let (from_server, to_server) = tokio::io::split(bridge_io);
    let waiters = Waiters::default();
    tokio::spawn(route_responses(from_server, waiters.clone()));
    let bridge = Arc::new(Bridge {
        to_server: Mutex::new(to_server),
        waiters,
    });
    let app = Router::new()
        .route("/mcp", post(handle_post))
        .with_state(bridge);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!("rmcp-examples post-hangs: listening on http://127.0.0.1:{port}/mcp");
    axum::serve(listener, app).await?;
    Ok(())
}

/// Reads the rmcp server's output and hands each response to the POST waiting for its id.
async fn route_responses(from_server: ReadHalf<DuplexStream>, waiters: Waiters) {
    let mut lines = BufReader::new(from_server).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        // Notifications (progress) have no POST of their own in a JSON-only endpoint: dropped.
        if message.get("method").is_some() {
            continue;
        }
        if let Some(id) = message.get("id") {
            if let Some(waiter) = waiters.lock().await.remove(&id.to_string()) {
                let _ = waiter.send(line);
            }
        }
    }
}

async fn handle_post(State(bridge): State<Arc<Bridge>>, body: String) -> Response {
    let Ok(message) = serde_json::from_str::<Value>(&body) else {
        return (StatusCode::BAD_REQUEST, "body is not JSON").into_response();
    };
    let request_id = match (message.get("method"), message.get("id")) {
        (Some(_), Some(id)) => Some(id.to_string()),
        _ => None,
    };
    let waiter = match request_id {
        Some(id) => {
            let (tx, rx) = oneshot::channel();
            // BUG: keyed by id alone, and only a response ever removes it.
            bridge.waiters.lock().await.insert(id, tx);
            Some(rx)
        }
        None => None,
    };
    {
        let mut to_server = bridge.to_server.lock().await;
        let line = format!("{message}\n");
        if to_server.write_all(line.as_bytes()).await.is_err() {
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    }
    match waiter {
        None => StatusCode::ACCEPTED.into_response(),
        // BUG: a cancelled request gets no response, so this await never returns.
        Some(rx) => match rx.await {
            Ok(response) => {
                ([(header::CONTENT_TYPE, "application/json")], response).into_response()
            }
            Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        },
    }
}
