//! `progress-rounded`: progress as a rounded percentage over many small items (pitfall 2).
//!
//! The job is 160 small items of about 1 ms each; after each one the author reports
//! `done * 100 / ITEMS` as an integer percentage. With more items than percent points the
//! same value goes out twice in a row, and MCP requires `progress` to increase with every
//! notification. Token and cancellation are handled correctly.

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock, ProgressNotificationParam, RequestMetaObject},
    tool, tool_handler, tool_router,
};
use tokio_util::sync::CancellationToken;

use crate::work_args::{WorkArgs, server_info};

/// More items than percent points, so integer percentages repeat.
const ITEMS: u32 = 160;

#[derive(Clone)]
pub struct ProgressRounded {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl ProgressRounded {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Processes 160 small items, reporting a percentage after each")]
    async fn work(
        &self,
        Parameters(args): Parameters<WorkArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        let token = meta.get_progress_token();
        for done in 1..=ITEMS {
            tokio::select! {
                _ = ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                _ = tokio::time::sleep(Duration::from_millis(1)) => {}
            }
            if let Some(token) = &token {
                // BUG: integer percent; 160 items give 100 distinct values, so some repeat.
                let percent = done * 100 / ITEMS;
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), f64::from(percent))
                            .with_total(100.0)
                            .with_message(format!("{percent}%")),
                    )
                    .await;
            }
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "done {}",
            args.steps
        ))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ProgressRounded {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        server_info("progress-rounded")
    }
}
