//! `progress-after-result`: a background task reports progress after the tool returned.
//!
//! The author answers as soon as the real work is done and leaves the last step, cleanup, to
//! a detached `tokio::spawn` task that reports it when it finishes. That notification names a
//! request the client already has the answer to. Token and cancellation are otherwise right.

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
pub struct ProgressAfterResult {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl ProgressAfterResult {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Runs `steps` steps of `stepMs` ms, then cleans up in the background")]
    async fn work(
        &self,
        Parameters(args): Parameters<WorkArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        let token = meta.get_progress_token();
        let total = f64::from(args.steps + 1); // the work, plus cleanup
        for i in 1..=args.steps {
            tokio::select! {
                _ = ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                _ = tokio::time::sleep(Duration::from_millis(args.step_ms)) => {}
            }
            if let Some(token) = &token {
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), f64::from(i))
                            .with_total(total)
                            .with_message(format!("step {i} of {}", args.steps)),
                    )
                    .await;
            }
        }
        // BUG: the cleanup outlives the request and still reports progress on its token.
        let step = Duration::from_millis(args.step_ms);
        tokio::spawn(async move {
            tokio::time::sleep(step).await;
            if let Some(token) = token {
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token, total)
                            .with_total(total)
                            .with_message("cleanup done"),
                    )
                    .await;
            }
        });
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "done {}",
            args.steps
        ))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ProgressAfterResult {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        server_info("progress-after-result")
    }
}
