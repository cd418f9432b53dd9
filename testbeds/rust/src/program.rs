//! The interpreter of one tool call `run` whose `program` argument is a scripted handler program
//! (mcp-sim's `HandlerProgram`), run in real time, shared by the two layers (testbeds/PROGRAM.md,
//! "Layers"): low.rs hands it what a hand-written `ServerHandler::call_tool` gets in its
//! `RequestContext`, high.rs what rmcp's `#[tool]` extractors give a tool method. Handler events go
//! to stderr as `mcp-sim-event {json}` lines.
//!
//! Abort policies, the way rmcp users write them: `honour` races every wait with
//! `ct.cancelled()` and returns an error; `swallow` does the same and returns `Ok`; `ignore`
//! never looks at `ct` (a spawned task only reports, for the side channel, that it fired).

use std::{collections::BTreeMap, time::Duration};

#[allow(deprecated)]
// Sampling and roots are deprecated by SEP-2577 (rmcp 2.0), still in the protocol the client speaks.
use rmcp::model::{CreateMessageRequestParams, SamplingMessage};
use rmcp::{
    ErrorData as McpError, Peer, RoleServer,
    model::{
        CallToolResult, ContentBlock, ElicitRequestParams, ElicitationSchema, ErrorCode,
        Implementation, InitializeResult, ProgressNotificationParam, ProgressToken, Request,
        RequestNoParam, ServerCapabilities, ServerRequest,
    },
    serde_json::{Value, json},
    service::PeerRequestOptions,
};
use tokio_util::sync::CancellationToken;

/// The description of the `run` tool, on both layers.
pub const DESCRIPTION: &str =
    "Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md)";

/// The server's hello, on both layers: tools, and the test bed's name.
pub fn server_info() -> InitializeResult {
    InitializeResult::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
        Implementation::new("mcp-sim-testbed-rust", env!("CARGO_PKG_VERSION")),
    )
}

/// What a layer hands the program of one call: the request's id (as JSON, for the side channel),
/// its progress token, its peer and its cancellation token.
pub struct Call {
    pub id: Value,
    pub token: Option<ProgressToken>,
    pub peer: Peer<RoleServer>,
    pub ct: CancellationToken,
}

/// One side-channel line, with the request id and call label added.
fn event(id: &Value, call: &Option<String>, mut body: Value) {
    body["id"] = id.clone();
    if let Some(c) = call {
        body["call"] = json!(c);
    }
    eprintln!("mcp-sim-event {body}");
}

pub fn ok() -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text("ok")])
}

/// The request a call step sends to the client (PROGRAM.md: one user message `run` with
/// `maxTokens` 16; a form elicitation `run` with an empty object schema; `roots/list`), or None
/// for a method the contract does not name.
#[allow(deprecated)]
fn client_request(method: &str) -> Option<ServerRequest> {
    Some(match method {
        "sampling/createMessage" => ServerRequest::CreateMessageRequest(Request::new(
            CreateMessageRequestParams::new(vec![SamplingMessage::user_text("run")], 16),
        )),
        "elicitation/create" => {
            ServerRequest::ElicitRequest(Request::new(ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: "run".into(),
                requested_schema: ElicitationSchema::new(BTreeMap::new()),
            }))
        }
        "roots/list" => ServerRequest::ListRootsRequest(RequestNoParam {
            method: Default::default(),
            extensions: Default::default(),
        }),
        _ => return None,
    })
}

/// Runs program `p` of the call labelled `call`: its steps, its end, its abort policy.
pub async fn interpret(
    p: Value,
    call: Option<String>,
    Call {
        id,
        token,
        peer,
        ct,
    }: Call,
) -> Result<CallToolResult, McpError> {
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
                    Some(rmcp::model::ProgressToken(
                        rmcp::model::NumberOrString::String(format!("invented-{index}").into()),
                    ))
                } else {
                    token.clone()
                };
                if let Some(t) = t {
                    let mut params =
                        ProgressNotificationParam::new(t, step["progress"].as_f64().unwrap_or(0.0));
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
                let sleep =
                    tokio::time::sleep(Duration::from_millis(step["ms"].as_u64().unwrap_or(0)));
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
                let Some(request) = step["method"].as_str().and_then(client_request) else {
                    return Err(McpError::invalid_params(
                        "program: a call step's method is sampling/createMessage, elicitation/create or roots/list",
                        None,
                    ));
                };
                // rmcp's per-request timeout: on expiry it sends notifications/cancelled for
                // the call and the call fails with ServiceError::Timeout.
                let mut options = PeerRequestOptions::no_options();
                options.timeout = step["timeoutMs"].as_u64().map(Duration::from_millis);
                let peer = peer.clone();
                // A failed call (an error answer, a timeout) is the handler's business: go on.
                let request = async move {
                    peer.send_request_with_option(request, options)
                        .await?
                        .await_response()
                        .await
                };
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
            let message = p["end"]["message"]
                .as_str()
                .unwrap_or("scripted error")
                .to_string();
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
