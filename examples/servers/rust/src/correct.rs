//! `correct`: the seed article's fixed code, in rmcp.
//!
//! Progress only when the request carried `_meta.progressToken`, `progress` counts finished
//! steps against a fixed `total`, and every sleep races the request's `CancellationToken` so a
//! `notifications/cancelled` stops the work at once. On cancel it returns an error and lets
//! rmcp drop it: rmcp never writes a response for a request it was told to cancel.

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
pub struct Correct {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Correct {
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
        for i in 1..=args.steps {
            tokio::select! {
                _ = ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                _ = tokio::time::sleep(Duration::from_millis(args.step_ms)) => {}
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
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "done {}",
            args.steps
        ))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Correct {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        server_info("correct")
    }
}
