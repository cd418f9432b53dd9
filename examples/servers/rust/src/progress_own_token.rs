//! `progress-own-token`: progress sent under a token the server made up (pitfall 1).
//!
//! The author numbered the job itself (`"task-1"`) instead of reading
//! `_meta.progressToken`, and reports whether or not the client asked for progress. A client
//! knows only the tokens it sent, so it drops all of these ("unknown token"). Cancellation is
//! wired correctly.

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, ContentBlock, NumberOrString, ProgressNotificationParam, ProgressToken,
    },
    tool, tool_handler, tool_router,
};
use tokio_util::sync::CancellationToken;

use crate::work_args::{WorkArgs, server_info};

#[derive(Clone)]
pub struct ProgressOwnToken {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl ProgressOwnToken {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Runs `steps` steps of `stepMs` ms, reporting progress after each")]
    async fn work(
        &self,
        Parameters(args): Parameters<WorkArgs>,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        // BUG: a token of our own; the client's is in the request's `_meta`.
        let token = ProgressToken(NumberOrString::String("task-1".into()));
        for i in 1..=args.steps {
            tokio::select! {
                _ = ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                _ = tokio::time::sleep(Duration::from_millis(args.step_ms)) => {}
            }
            let _ = peer
                .notify_progress(
                    ProgressNotificationParam::new(token.clone(), f64::from(i))
                        .with_total(f64::from(args.steps))
                        .with_message(format!("step {i} of {}", args.steps)),
                )
                .await;
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "done {}",
            args.steps
        ))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ProgressOwnToken {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        server_info("progress-own-token")
    }
}
