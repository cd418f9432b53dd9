//! mcp-sim's Rust SDK test bed (testbeds/PROGRAM.md): one tool `run` whose `program` argument
//! is a scripted handler program (mcp-sim's `HandlerProgram`), interpreted in real time
//! (program.rs) on one of two layers of rmcp's server API: `--layer low` (the default) a
//! `ServerHandler` written by hand (low.rs), `--layer high` the `#[tool_router]`/`#[tool]` macros
//! (high.rs); over rmcp's stdio transport or, with `--http --port N --mode M`, its Streamable
//! HTTP service (http.rs). One source for every pinned release: sdk.rs holds what moved between them.

mod high;
mod http;
mod low;
mod program;
mod sdk;

use rmcp::{ServiceExt, transport::stdio};

/// The value of `--name value`, if given.
fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let layer = flag(&args, "--layer").unwrap_or_else(|| "low".into());
    if layer != "low" && layer != "high" {
        eprintln!("mcp-sim testbed rust: unknown --layer {layer} (low or high)");
        std::process::exit(2);
    }
    let high = layer == "high";
    if args.iter().any(|a| a == "--http") {
        let port = flag(&args, "--port").and_then(|p| p.parse::<u16>().ok());
        let mode_name = flag(&args, "--mode").unwrap_or_else(|| "stateful-sse".into());
        let (Some(port), Some(mode)) = (port, http::Mode::parse(&mode_name)) else {
            eprintln!(
                "mcp-sim testbed rust: usage: --http --port N --mode stateful-sse|stateless-sse|stateless-json (rmcp has no stateful-json: got {mode_name})"
            );
            std::process::exit(2);
        };
        if high {
            http::serve(port, mode, high::Testbed::new).await?;
        } else {
            http::serve(port, mode, low::LowTestbed::default).await?;
        }
        return Ok(());
    }
    if high {
        high::Testbed::new().serve(stdio()).await?.waiting().await?;
    } else {
        low::LowTestbed.serve(stdio()).await?.waiting().await?;
    }
    Ok(())
}
