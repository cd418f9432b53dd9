//! `never-ends`: the tool awaits something nothing resolves, and ignores cancellation.
//!
//! After its first step the job waits for a confirmation that never comes
//! (`std::future::pending()`), and the author did not race that wait against the request's
//! `CancellationToken`. Without a cancel the call is never answered; with one, rmcp answers
//! nothing either (which is right), but the handler task lives on until the process ends.

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock, ProgressNotificationParam, RequestMetaObject},
    tool, tool_handler, tool_router,
};

use crate::work_args::{WorkArgs, server_info};

#[derive(Clone)]
pub struct NeverEnds {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl NeverEnds {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Runs one step of `stepMs` ms, then waits for the job to be confirmed")]
    async fn work(
        &self,
        Parameters(args): Parameters<WorkArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        tokio::time::sleep(Duration::from_millis(args.step_ms)).await;
        if let Some(token) = meta.get_progress_token() {
            let _ = peer
                .notify_progress(
                    ProgressNotificationParam::new(token, 1.0)
                        .with_total(f64::from(args.steps))
                        .with_message(format!("step 1 of {}", args.steps)),
                )
                .await;
        }
        // BUG: waits forever, and not in a select with the request's CancellationToken.
        std::future::pending::<()>().await;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "done {}",
            args.steps
        ))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for NeverEnds {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        server_info("never-ends")
    }
}
