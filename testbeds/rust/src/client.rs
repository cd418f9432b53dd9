//! mcp-sim's Rust SDK test-bed client (testbeds/CLIENT.md): a thin interpreter of a client
//! script, written with rmcp's ordinary client API. `sdk-testbed-client SCRIPT.json`.
//!
//! - Transport: rmcp's `TokioChildProcess` spawning `server.stdio` (no shell), or its
//!   `StreamableHttpClientTransport` (reqwest) to `server.url`; `ClientHandler::serve` does the
//!   `initialize` handshake (client `mcp-sim-client`, capabilities sampling, elicitation, roots).
//! - `call`: `Peer::send_cancellable_request(tools/call, PeerRequestOptions)`: the SDK's
//!   per-request `timeout`, `reset_timeout_on_progress` and `max_total_timeout`; the returned
//!   `RequestHandle` is awaited with `await_response` (which runs those timeouts).
//! - `abort`: a call without timeout options is awaited on the handle's own response channel
//!   (what `await_response` does when it has no timeout) and aborted with
//!   `RequestHandle::cancel`, rmcp's cancel API; a call with timeout options is awaited with
//!   `await_response`, which consumes the handle (so does `cancel`: one cannot have both), and
//!   is aborted by dropping that future. The `call-end` message says which.
//! - progress: rmcp has no per-call progress callback: every request carries a progress token
//!   the SDK picks, and `ClientHandler::on_progress` receives every progress notification; the
//!   event is labelled with the call whose `RequestHandle::progress_token` it carries.
//! - `close`: `RunningService::close`.
//! - Server requests: `ClientHandler::create_message`, `create_elicitation`, `list_roots`, which
//!   wait `delayMs` (or forever with `hang`) racing `RequestContext::ct`, the SDK's cancellation.
//!
//! Side channel: `mcp-sim-event {json}` lines on stderr. One source for every pinned release:
//! the few names that moved between rmcp 2.x and 3.x are behind the `rmcp-v2`/`rmcp-v3` cfgs.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

#[allow(deprecated)]
// Sampling and roots are deprecated by SEP-2577 (rmcp 2.0), still in the protocol.
use rmcp::model::{CreateMessageRequestParams, CreateMessageResult, ListRootsResult};
use rmcp::{
    ClientHandler, ErrorData as McpError, ServiceExt,
    model::{
        ClientRequest, ElicitRequestParams, ElicitResult, InitializeRequestParams,
        ProgressNotificationParam, ProgressToken,
    },
    serde_json::{self, Value, json},
    service::{
        NotificationContext, PeerRequestOptions, RequestContext, RoleClient, RunningService,
        ServiceError,
    },
    transport::{StreamableHttpClientTransport, TokioChildProcess},
};
use tokio_util::sync::CancellationToken;

/// One side-channel line, written at once (stderr is unbuffered).
fn event(body: Value) {
    eprintln!("mcp-sim-event {body}");
}

/// How the handlers answer the server's requests (the script's `serverRequests`).
#[derive(Clone, Default)]
struct ServerRequests {
    delay: Duration,
    hang: bool,
}

#[derive(Clone)]
struct Client {
    answers: ServerRequests,
    /// Progress token (as JSON) → the call it was given to.
    tokens: Arc<Mutex<HashMap<String, String>>>,
}

fn token_key(token: &ProgressToken) -> String {
    serde_json::to_string(token).unwrap_or_default()
}

impl Client {
    /// A server request's handler: `server-request`, then wait `delayMs` (or forever with
    /// `hang`), stopped by the SDK's cancellation of the request (`RequestContext::ct`).
    async fn answer<T>(
        &self,
        method: &str,
        context: &RequestContext<RoleClient>,
        answer: Value,
    ) -> Result<T, McpError>
    where
        T: serde::de::DeserializeOwned,
    {
        let id = serde_json::to_value(&context.id).unwrap_or(Value::Null);
        event(json!({"event": "server-request", "method": method, "id": id}));
        let wait = async {
            if self.answers.hang {
                std::future::pending::<()>().await
            } else {
                tokio::time::sleep(self.answers.delay).await
            }
        };
        tokio::select! {
            _ = wait => {
                event(json!({"event": "server-request-end", "method": method, "id": id, "outcome": "result"}));
                serde_json::from_value(answer).map_err(|e| McpError::internal_error(format!("mcp-sim client: bad answer: {e}"), None))
            }
            _ = context.ct.cancelled() => {
                event(json!({"event": "server-request-cancelled", "method": method, "id": id}));
                event(json!({"event": "server-request-end", "method": method, "id": id, "outcome": "aborted"}));
                Err(McpError::internal_error("cancelled", None))
            }
        }
    }
}

#[allow(deprecated)]
impl ClientHandler for Client {
    async fn create_message(
        &self,
        _params: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, McpError> {
        let answer = json!({"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "mcp-sim", "stopReason": "endTurn"});
        self.answer("sampling/createMessage", &context, answer)
            .await
    }

    async fn create_elicitation(
        &self,
        _params: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        self.answer(
            "elicitation/create",
            &context,
            json!({"action": "accept", "content": {}}),
        )
        .await
    }

    async fn list_roots(
        &self,
        context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, McpError> {
        self.answer("roots/list", &context, json!({"roots": []}))
            .await
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let call = self
            .tokens
            .lock()
            .unwrap()
            .get(&token_key(&params.progress_token))
            .cloned();
        let mut body = json!({"event": "progress", "progress": params.progress});
        match call {
            Some(call) => body["call"] = json!(call),
            None => {
                body["token"] = serde_json::to_value(&params.progress_token).unwrap_or(Value::Null)
            }
        }
        if let Some(total) = params.total {
            body["total"] = json!(total);
        }
        if let Some(message) = &params.message {
            body["message"] = json!(message);
        }
        event(body);
    }

    fn get_info(&self) -> InitializeRequestParams {
        // Built through JSON from the SDK's default (its protocol version), so the one source
        // fits every release's field set.
        let mut info =
            serde_json::to_value(InitializeRequestParams::default()).unwrap_or_else(|_| json!({}));
        info["capabilities"] = json!({"sampling": {}, "elicitation": {}, "roots": {}});
        info["clientInfo"] = json!({"name": "mcp-sim-client", "version": "0.1.0"});
        // The SDK's own protocol version (rmcp 3.x offers its LATEST, 2026-07-28; the scripted
        // server answers 2025-11-25, the newest it scripts, and rmcp goes on with that).
        // MCP_SIM_PROTOCOL_VERSION=<v> offers another one.
        if let Ok(v) = std::env::var("MCP_SIM_PROTOCOL_VERSION")
            && !v.is_empty()
            && v != "default"
        {
            info["protocolVersion"] = json!(v);
        }
        serde_json::from_value(info).unwrap_or_default()
    }
}

/// The `call-end` line of an SDK error: timeout, a JSON-RPC error with its code, the
/// connection's end, or anything else.
fn error_end(call: &str, error: ServiceError) -> Value {
    let message = error.to_string();
    match error {
        ServiceError::McpError(e) => {
            json!({"event": "call-end", "call": call, "outcome": "error", "code": e.code.0, "message": e.message})
        }
        ServiceError::Timeout { .. } => {
            json!({"event": "call-end", "call": call, "outcome": "timeout", "message": message})
        }
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
            json!({"event": "call-end", "call": call, "outcome": "closed", "message": message})
        }
        // Not the caller's abort (that returns before reading the response): a cancel the
        // peer sent, which rmcp 3.0.0 applies to the client's own request of the same id.
        _ => json!({"event": "call-end", "call": call, "outcome": "other", "message": message}),
    }
}

/// The `call-end` line of the SDK's answer to a call.
fn response_end<T: serde::Serialize>(call: &str, response: Result<T, ServiceError>) -> Value {
    match response {
        Ok(result) => {
            let result = serde_json::to_value(result).unwrap_or(Value::Null);
            let mut body = json!({"event": "call-end", "call": call, "outcome": "result"});
            if result.get("isError").and_then(Value::as_bool) == Some(true) {
                body["isError"] = json!(true);
            }
            body
        }
        Err(error) => error_end(call, error),
    }
}

fn ms(v: &Value) -> Option<Duration> {
    v.as_f64()
        .filter(|n| *n >= 0.0)
        .map(|n| Duration::from_micros((n * 1000.0) as u64))
}

/// One `call` action, concurrently with what follows; returns when the SDK's call returned.
async fn run_call(
    peer: rmcp::Peer<RoleClient>,
    tokens: Arc<Mutex<HashMap<String, String>>>,
    action: Value,
    abort: CancellationToken,
) {
    let call = action["call"].as_str().unwrap_or("").to_string();
    let mut options = PeerRequestOptions::no_options();
    options.timeout = ms(&action["timeoutMs"]);
    if action["resetTimeoutOnProgress"].as_bool() == Some(true) {
        options = options.reset_timeout_on_progress();
    }
    if let Some(max) = ms(&action["maxTotalTimeoutMs"]) {
        options = options.with_max_total_timeout(max);
    }
    let timed = options.timeout.is_some() || options.max_total_timeout.is_some();
    let request: ClientRequest = match serde_json::from_value(
        json!({"method": "tools/call", "params": {"name": "run", "arguments": {"call": call}}}),
    ) {
        Ok(r) => r,
        Err(e) => {
            event(
                json!({"event": "call-end", "call": call, "outcome": "other", "message": format!("mcp-sim client: cannot build tools/call: {e}")}),
            );
            return;
        }
    };
    event(json!({"event": "call-start", "call": call}));
    let mut handle = match peer.send_cancellable_request(request, options).await {
        Ok(h) => h,
        Err(e) => return event(error_end(&call, e)),
    };
    tokens
        .lock()
        .unwrap()
        .insert(token_key(&handle.progress_token), call.clone());
    if timed {
        // The SDK's timeouts live in `await_response`, which consumes the handle: the caller's
        // abort can only drop this future.
        tokio::select! {
            response = handle.await_response() => event(response_end(&call, response)),
            _ = abort.cancelled() => event(json!({"event": "call-end", "call": call, "outcome": "aborted", "message": "dropped the RequestHandle::await_response future (rmcp sends no notifications/cancelled for it)"})),
        }
    } else {
        tokio::select! {
            response = &mut handle.rx => event(response_end(&call, response.unwrap_or(Err(ServiceError::TransportClosed)))),
            _ = abort.cancelled() => {
                let id = serde_json::to_value(&handle.id).unwrap_or(Value::Null);
                match handle.cancel(Some("mcp-sim: caller abort".into())).await {
                    Ok(()) => event(json!({"event": "call-end", "call": call, "outcome": "aborted", "message": format!("RequestHandle::cancel of request {id}")})),
                    Err(e) => event(json!({"event": "call-end", "call": call, "outcome": "aborted", "message": format!("RequestHandle::cancel of request {id} failed: {e}")})),
                }
            }
        }
    }
}

fn fail(message: String) -> ! {
    eprintln!("mcp-sim client rust: {message}");
    std::process::exit(1);
}

#[tokio::main]
async fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| fail("usage: sdk-testbed-client SCRIPT.json".into()));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| fail(format!("cannot read {path}: {e}")));
    let script: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| fail(format!("bad script {path}: {e}")));
    let answers = ServerRequests {
        delay: ms(&script["serverRequests"]["delayMs"]).unwrap_or_default(),
        hang: script["serverRequests"]["hang"].as_bool() == Some(true),
    };
    let tokens = Arc::new(Mutex::new(HashMap::new()));
    let client = Client {
        answers,
        tokens: tokens.clone(),
    };

    let service: RunningService<RoleClient, Client> =
        if let Some(argv) = script["server"]["stdio"].as_array() {
            let argv: Vec<String> = argv
                .iter()
                .filter_map(|a| a.as_str().map(String::from))
                .collect();
            let Some((program, args)) = argv.split_first() else {
                fail("server.stdio is empty".into())
            };
            let mut command = tokio::process::Command::new(program);
            command.args(args);
            let transport = TokioChildProcess::new(command)
                .unwrap_or_else(|e| fail(format!("cannot spawn {program}: {e}")));
            client
                .serve(transport)
                .await
                .unwrap_or_else(|e| fail(format!("initialize over stdio failed: {e}")))
        } else if let Some(url) = script["server"]["url"].as_str() {
            let transport = StreamableHttpClientTransport::from_uri(url.to_string());
            client
                .serve(transport)
                .await
                .unwrap_or_else(|e| fail(format!("initialize over HTTP ({url}) failed: {e}")))
        } else {
            fail("the script has neither server.stdio nor server.url".into())
        };
    let peer = service.peer().clone();
    let service = Arc::new(tokio::sync::Mutex::new(Some(service)));
    event(json!({"event": "ready"}));
    let ready = Instant::now();
    let deadline = ready + ms(&script["deadlineMs"]).unwrap_or(Duration::from_secs(60));

    let mut actions: Vec<Value> = script["actions"].as_array().cloned().unwrap_or_default();
    actions.sort_by(|a, b| {
        a["atMs"]
            .as_f64()
            .unwrap_or(0.0)
            .total_cmp(&b["atMs"].as_f64().unwrap_or(0.0))
    }); // stable: equal times keep list order
    let mut aborts: HashMap<String, CancellationToken> = HashMap::new();
    let mut calls = tokio::task::JoinSet::new();
    for action in actions {
        let at = ready + ms(&action["atMs"]).unwrap_or_default();
        tokio::time::sleep_until(at.into()).await;
        let label = action["call"].as_str().unwrap_or("").to_string();
        match action["kind"].as_str() {
            Some("call") => {
                let abort = aborts.entry(label).or_default().clone();
                calls.spawn(run_call(peer.clone(), tokens.clone(), action, abort));
            }
            Some("abort") => {
                event(json!({"event": "abort", "call": label}));
                aborts.entry(label).or_default().cancel();
            }
            Some("close") => {
                event(json!({"event": "close"}));
                if let Some(mut s) = service.lock().await.take() {
                    let _ = s.close().await;
                }
            }
            other => eprintln!("mcp-sim client rust: unknown action kind {other:?}, skipped"),
        }
    }
    // Every call settled, or the deadline.
    let _ = tokio::time::timeout_at(deadline.into(), async {
        while calls.join_next().await.is_some() {}
    })
    .await;
    if let Some(mut s) = service.lock().await.take() {
        // CLIENT.md: a moment for a cancel sent in the background, then the final close.
        tokio::time::sleep(Duration::from_millis(200)).await;
        event(json!({"event": "close"}));
        let _ = s.close().await;
    }
    event(json!({"event": "closed"}));
    // CLIENT.md: linger, so a stdio server the close left running shows as running.
    tokio::time::sleep(Duration::from_millis(300)).await;
    std::process::exit(0);
}
