//! `total-changes`: `total` grows half way ("it was 80, not 50"), pitfall 2's second half.
//!
//! Half way through, the job finds as much work again as it planned and raises `total` from
//! `steps` to `2 * steps`; a client's progress bar jumps back. The article's advice is to
//! leave `total` out while it is unknown. Token and cancellation are handled correctly.

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
pub struct TotalChanges {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl TotalChanges {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Runs `steps` steps of `stepMs` ms, and more if it finds more work")]
    async fn work(
        &self,
        Parameters(args): Parameters<WorkArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        let token = meta.get_progress_token();
        let mut total = args.steps;
        let mut done = 0;
        while done < total {
            tokio::select! {
                _ = ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                _ = tokio::time::sleep(Duration::from_millis(args.step_ms)) => {}
            }
            done += 1;
            if let Some(token) = &token {
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), f64::from(done))
                            .with_total(f64::from(total))
                            .with_message(format!("step {done} of {total}")),
                    )
                    .await;
            }
            if done == args.steps.div_ceil(2) && total == args.steps {
                // BUG: the job turned out bigger, and the new size goes out as `total`.
                total = args.steps * 2;
            }
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "done {total}"
        ))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TotalChanges {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        server_info("total-changes")
    }
}
