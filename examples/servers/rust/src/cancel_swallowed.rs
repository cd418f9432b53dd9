//! `cancel-swallowed`: the cancellation is caught like any error and answered (pitfall 3b).
//!
//! Each step races the request's `CancellationToken` (so the cancel *is* observed), but the
//! author treats every step error alike: back off, retry once, and if it fails again record it
//! and go on ("one bad step must not fail the job"); in the end it returns
//! `Ok(CallToolResult)` listing the failures. rmcp drops that result (it never answers a
//! request it was told to cancel), so on the wire the swallowing shows as what the loop does
//! next: each remaining step still backs off, fails and reports progress on the client's
//! token, one `stepMs` apart, after the cancel.

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock, ProgressNotificationParam, RequestMetaObject},
    tool, tool_handler, tool_router,
};
use tokio_util::sync::CancellationToken;

use crate::work_args::{WorkArgs, server_info};

#[derive(Clone)]
pub struct CancelSwallowed {
    tool_router: ToolRouter<Self>,
}

/// One step of the job; fails with "cancelled" once the request is cancelled.
async fn run_step(step_ms: u64, ct: &CancellationToken) -> Result<(), String> {
    tokio::select! {
        _ = ct.cancelled() => Err("cancelled".to_string()),
        _ = tokio::time::sleep(Duration::from_millis(step_ms)) => Ok(()),
    }
}

#[tool_router]
impl CancelSwallowed {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Runs `steps` steps of `stepMs` ms, reporting progress after each")]
    async fn work(
        &self,
        Parameters(args): Parameters<WorkArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        let token = meta.get_progress_token();
        let mut failures = Vec::new();
        for i in 1..=args.steps {
            // BUG: the cancel is one more step error: retried after a pause, then recorded,
            // and the loop goes on.
            if let Err(error) = run_step(args.step_ms, &ct).await {
                tokio::time::sleep(Duration::from_millis(args.step_ms)).await;
                if run_step(args.step_ms, &ct).await.is_err() {
                    failures.push(format!("step {i}: {error}"));
                }
            }
            if let Some(token) = &token {
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), f64::from(i))
                            .with_total(f64::from(args.steps))
                            .with_message(format!("step {i} of {}", args.steps)),
                    )
                    .await;
            }
        }
        // BUG: a normal result for a request that was cancelled.
        let summary = if failures.is_empty() {
            format!("done {}", args.steps)
        } else {
            format!(
                "done {} ({} failed: {})",
                args.steps,
                failures.len(),
                failures.join(", ")
            )
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(summary)]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CancelSwallowed {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        server_info("cancel-swallowed")
    }
}
