//! `cancel-not-wired`: the cancellation never reaches the work (pitfall 3a).
//!
//! rmcp does not abort a handler on `notifications/cancelled`: it cancels the request's
//! `CancellationToken` and drops whatever the handler returns later. The author never takes
//! that token; to keep the server responsive they run the job on its own `tokio::spawn` task
//! and await its `JoinHandle`, which nothing cancels. After a cancel the job keeps running and
//! keeps reporting progress on the client's token: the article's zombie.

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, ContentBlock, ProgressNotificationParam, ProgressToken, RequestMetaObject,
    },
    tool, tool_handler, tool_router,
};

use crate::work_args::{WorkArgs, server_info};

#[derive(Clone)]
pub struct CancelNotWired {
    tool_router: ToolRouter<Self>,
}

/// The job, on its own task: it has no way to hear about a cancel.
async fn run_job(
    steps: u32,
    step_ms: u64,
    token: Option<ProgressToken>,
    peer: Peer<RoleServer>,
) -> u32 {
    for i in 1..=steps {
        tokio::time::sleep(Duration::from_millis(step_ms)).await;
        if let Some(token) = &token {
            let _ = peer
                .notify_progress(
                    ProgressNotificationParam::new(token.clone(), f64::from(i))
                        .with_total(f64::from(steps))
                        .with_message(format!("step {i} of {steps}")),
                )
                .await;
        }
    }
    steps
}

#[tool_router]
impl CancelNotWired {
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
    ) -> Result<CallToolResult, McpError> {
        // BUG: detached task, and the request's CancellationToken is never taken or checked.
        let job = tokio::spawn(run_job(
            args.steps,
            args.step_ms,
            meta.get_progress_token(),
            peer,
        ));
        let steps = job
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "done {steps}"
        ))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CancelNotWired {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        server_info("cancel-not-wired")
    }
}
