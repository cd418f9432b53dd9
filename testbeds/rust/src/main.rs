//! mcp-sim's Rust SDK test bed (testbeds/PROGRAM.md): one tool `run` whose `program` argument
//! is a scripted handler program (mcp-sim's `HandlerProgram`), interpreted in real time with
//! rmcp's ordinary tool API (`#[tool_router]`, `#[tool]`, extractors for the request's id,
//! `_meta`, `Peer` and `CancellationToken`). Handler events go to stderr as
//! `mcp-sim-event {json}` lines.
//!
//! Abort policies, the way rmcp users write them: `honour` races every wait with
//! `ct.cancelled()` and returns an error; `swallow` does the same and returns `Ok`; `ignore`
//! never looks at `ct` (a spawned task only reports, for the side channel, that it fired).

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler, ServiceExt,
    handler::server::{common::RequestId, router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock, ErrorCode, Implementation, ProgressNotificationParam, RequestMetaObject, ServerCapabilities, ServerConfig},
    serde_json::{self, Value, json},
    tool, tool_handler, tool_router,
    transport::stdio,
};
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

#[derive(Deserialize, schemars::JsonSchema)]
struct RunArgs {
    /// The scripted handler program (mcp-sim's HandlerProgram).
    program: Value,
    /// The call's label, echoed on the side channel.
    call: Option<String>,
}

/// One side-channel line, with the request id and call label added.
fn event(id: &Value, call: &Option<String>, mut body: Value) {
    body["id"] = id.clone();
    if let Some(c) = call {
        body["call"] = json!(c);
    }
    eprintln!("mcp-sim-event {body}");
}

fn ok() -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text("ok")])
}

#[derive(Clone)]
struct Testbed {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Testbed {
    fn new() -> Self {
        Self { tool_router: Self::tool_router() }
    }

    #[tool(description = "Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md)")]
    async fn run(
        &self,
        Parameters(args): Parameters<RunArgs>,
        RequestId(request_id): RequestId,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        let id = serde_json::to_value(&request_id).unwrap_or(Value::Null);
        let call = args.call.clone();
        let p = args.program;
        let ev = |body: Value| event(&id, &call, body);
        let policy = p["onAbort"].as_str().unwrap_or("honour").to_string();
        let listens = policy != "ignore";
        ev(json!({"event": "handler-start"}));
        if !listens {
            let (ct, id, call) = (ct.clone(), id.clone(), call.clone());
            tokio::spawn(async move {
                ct.cancelled().await;
                event(&id, &call, json!({"event": "abort-observed"}));
            });
        }
        let aborted = || {
            ev(json!({"event": "abort-observed"}));
            if policy == "swallow" {
                ev(json!({"event": "handler-end", "outcome": "swallowed"}));
                Ok(ok())
            } else {
                ev(json!({"event": "handler-end", "outcome": "aborted"}));
                Err(McpError::internal_error("cancelled", None))
            }
        };
        let token = meta.get_progress_token();
        let invent = p["faults"]["progressToken"].as_str() == Some("invent");
        let steps = p["steps"].as_array().cloned().unwrap_or_default();
        for (index, step) in steps.iter().enumerate() {
            if listens && ct.is_cancelled() {
                return aborted();
            }
            ev(json!({"event": "step", "index": index}));
            match step["kind"].as_str() {
                Some("progress") => {
                    let t = if invent {
                        Some(rmcp::model::ProgressToken(rmcp::model::NumberOrString::String(format!("invented-{index}").into())))
                    } else {
                        token.clone()
                    };
                    if let Some(t) = t {
                        let mut params = ProgressNotificationParam::new(t, step["progress"].as_f64().unwrap_or(0.0));
                        if let Some(total) = step["total"].as_f64() {
                            params = params.with_total(total);
                        }
                        if let Some(message) = step["message"].as_str() {
                            params = params.with_message(message.to_string());
                        }
                        let _ = peer.notify_progress(params).await;
                    }
                }
                Some("sleep") => {
                    let sleep = tokio::time::sleep(Duration::from_millis(step["ms"].as_u64().unwrap_or(0)));
                    if listens {
                        tokio::select! {
                            _ = ct.cancelled() => return aborted(),
                            _ = sleep => {}
                        }
                    } else {
                        sleep.await;
                    }
                }
                Some("call") => {
                    if step["method"].as_str() != Some("roots/list") {
                        return Err(McpError::invalid_params("test bed: only roots/list call steps are built in Rust yet", None));
                    }
                    #[allow(deprecated)]
                    let request = peer.list_roots();
                    if listens {
                        tokio::select! {
                            _ = ct.cancelled() => return aborted(),
                            _ = request => {}
                        }
                    } else {
                        let _ = request.await;
                    }
                }
                _ => return Err(McpError::invalid_params("program: unknown step kind", None)),
            }
        }
        match p["end"]["kind"].as_str() {
            Some("error") => {
                ev(json!({"event": "handler-end", "outcome": "error"}));
                let code = p["end"]["code"].as_i64().unwrap_or(-32603) as i32;
                let message = p["end"]["message"].as_str().unwrap_or("scripted error").to_string();
                Err(McpError::new(ErrorCode(code), message, None))
            }
            Some("hang") => {
                ct.cancelled().await;
                aborted()
            }
            _ => {
                ev(json!({"event": "handler-end", "outcome": "result"}));
                Ok(ok())
            }
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Testbed {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mcp-sim-testbed-rust", env!("CARGO_PKG_VERSION")))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().any(|a| a == "--http") {
        eprintln!("mcp-sim testbed rust: --http is not built yet (stdio only)");
        std::process::exit(2);
    }
    let service = Testbed::new().serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
