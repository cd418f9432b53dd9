//! mcp-sim's Rust example servers: one binary, one rmcp server per `--variant`.
//!
//! ```text
//! rmcp-examples --variant NAME                                   # stdio (default)
//! rmcp-examples --variant NAME --http --port N [--stateless [--json]]
//! rmcp-examples --variant post-hangs --http --port N                # HTTP only
//! ```
//!
//! Each variant lives in its own file and is written the way rmcp users write a server
//! (`#[tool_router]`, `#[tool]`, `ServerHandler`); see README.md for the pitfall in each.
//! stdio exits when stdin closes (rmcp's serve loop ends on EOF). SIGTERM keeps its default
//! action, as in rmcp's own examples, so the process ends at once in either transport.

mod cancel_not_wired;
mod cancel_swallowed;
mod correct;
mod never_ends;
mod post_hangs;
mod progress_after_result;
mod progress_own_token;
mod progress_rounded;
mod total_changes;
mod work_args;

use std::{error::Error, process::ExitCode};

use rmcp::{
    ServerHandler, ServiceExt,
    transport::{
        stdio,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        },
    },
};
use tokio_util::sync::CancellationToken;

/// Every `--variant` this binary serves, in the order of the contract's table.
const VARIANTS: &[&str] = &[
    "correct",
    "progress-own-token",
    "progress-rounded",
    "total-changes",
    "progress-after-result",
    "cancel-not-wired",
    "cancel-swallowed",
    "never-ends",
    "post-hangs",
];

/// How to serve: stdio, or Streamable HTTP on 127.0.0.1.
struct Options {
    variant: String,
    http: Option<Http>,
}

struct Http {
    port: u16,
    /// rmcp's stateless mode (`legacy_session_mode: false`): no `Mcp-Session-Id`.
    stateless: bool,
    /// With `stateless`: answer `application/json` where no notification precedes the result.
    json: bool,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut variant = None;
    let (mut http, mut port, mut stateless, mut json) = (false, None, false, false);
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--variant" => variant = Some(args.next().ok_or("--variant needs a name")?),
            "--http" => http = true,
            "--port" => {
                let value = args.next().ok_or("--port needs a number")?;
                port = Some(value.parse::<u16>().map_err(|_| {
                    format!("--port {value}: not a port number (1-65535); pass e.g. --port 8080")
                })?);
            }
            "--stateless" => stateless = true,
            "--json" => json = true,
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: --variant NAME [--http --port N [--stateless [--json]]]"
                ));
            }
        }
    }
    let variant =
        variant.ok_or_else(|| format!("--variant is required: one of {}", VARIANTS.join(", ")))?;
    if !VARIANTS.contains(&variant.as_str()) {
        return Err(format!(
            "--variant {variant}: unknown; use one of {}",
            VARIANTS.join(", ")
        ));
    }
    if !http && (port.is_some() || stateless || json) {
        return Err("--port, --stateless and --json select HTTP modes: add --http".into());
    }
    if json && !stateless {
        return Err("--json: rmcp answers JSON only in stateless mode; add --stateless".into());
    }
    if variant == "post-hangs" && !http {
        return Err(
            "--variant post-hangs: HTTP only (a hand-written JSON endpoint); add --http --port N"
                .into(),
        );
    }
    let http = match (http, port) {
        (false, _) => None,
        (true, Some(port)) => Some(Http {
            port,
            stateless,
            json,
        }),
        (true, None) => {
            return Err("--http needs --port N (the server listens on 127.0.0.1:N)".into());
        }
    };
    Ok(Options { variant, http })
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("rmcp-examples: {message}");
            return ExitCode::from(2);
        }
    };
    let served = match options.variant.as_str() {
        "correct" => serve(correct::Correct::new, &options).await,
        "progress-own-token" => serve(progress_own_token::ProgressOwnToken::new, &options).await,
        "progress-rounded" => serve(progress_rounded::ProgressRounded::new, &options).await,
        "total-changes" => serve(total_changes::TotalChanges::new, &options).await,
        "progress-after-result" => {
            serve(progress_after_result::ProgressAfterResult::new, &options).await
        }
        "cancel-not-wired" => serve(cancel_not_wired::CancelNotWired::new, &options).await,
        "cancel-swallowed" => serve(cancel_swallowed::CancelSwallowed::new, &options).await,
        "never-ends" => serve(never_ends::NeverEnds::new, &options).await,
        "post-hangs" => match &options.http {
            Some(http) => post_hangs::serve(http.port).await,
            None => unreachable!("parse_args requires --http for post-hangs"),
        },
        _ => unreachable!("parse_args accepts only VARIANTS"),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rmcp-examples {}: {error}", options.variant);
            ExitCode::from(1)
        }
    }
}

async fn serve<S: ServerHandler>(make: fn() -> S, options: &Options) -> Result<(), Box<dyn Error>> {
    let Some(http) = &options.http else {
        // What rmcp's README shows: serve on stdio, then wait until the client goes away.
        let service = make().serve(stdio()).await?;
        service.waiting().await?;
        return Ok(());
    };
    let ct = CancellationToken::new();
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!http.stateless)
        .with_json_response(http.json)
        .with_cancellation_token(ct.child_token());
    let service = StreamableHttpService::new(
        move || Ok(make()),
        LocalSessionManager::default().into(),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", http.port)).await?;
    eprintln!(
        "rmcp-examples {}: listening on http://127.0.0.1:{}/mcp",
        options.variant, http.port
    );
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            ct.cancel();
        })
        .await?;
    Ok(())
}
