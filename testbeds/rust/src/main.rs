//! mcp-sim's Rust SDK test bed (testbeds/PROGRAM.md): one tool `run` whose `program` argument
//! is a scripted handler program (mcp-sim's `HandlerProgram`), interpreted in real time with
//! rmcp's ordinary server API (program.rs), over rmcp's stdio transport or, with
//! `--http --port N --mode M`, its Streamable HTTP service (http.rs). One source for every
//! pinned release: sdk.rs holds what moved between them.

mod http;
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
    if args.iter().any(|a| a == "--http") {
        let port = flag(&args, "--port").and_then(|p| p.parse::<u16>().ok());
        let mode_name = flag(&args, "--mode").unwrap_or_else(|| "stateful-sse".into());
        let (Some(port), Some(mode)) = (port, http::Mode::parse(&mode_name)) else {
            eprintln!(
                "mcp-sim testbed rust: usage: --http --port N --mode stateful-sse|stateless-sse|stateless-json (rmcp has no stateful-json: got {mode_name})"
            );
            std::process::exit(2);
        };
        http::serve(port, mode).await?;
        return Ok(());
    }
    let service = program::Testbed::new().serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
