//! A Rust MCP server as its author writes it on the first day: two tools on rmcp (the
//! `#[tool_router]` and `#[tool]` macros, typed arguments in `Parameters<_>`), served on stdio.
//!
//! `count` is right: each step races the request's `CancellationToken`, so rmcp's cancellation
//! (it cancels the token on `notifications/cancelled`) stops the work, and progress is sent only
//! when the client asked for it (`meta.get_progress_token()`), with increasing values.
//! `resize` has the common pitfall: it reports a rounded percentage over more than 100 images,
//! so the same value goes out twice (progress must increase).
//!
//! Check it (README, "Check your server"):
//!
//! ```text
//! cargo build --release
//! npx mcp-sim check -- target/release/photos
//! ```

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler, ServiceExt,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, ContentBlock, Implementation, ProgressNotificationParam, ProgressToken,
        RequestMetaObject, ServerCapabilities, ServerConfig,
    },
    tool, tool_handler, tool_router,
    transport::stdio,
};
use schemars::JsonSchema;
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

#[derive(Deserialize, JsonSchema)]
struct CountArgs {
    /// How far to count, 1 to 8.
    #[schemars(range(min = 1, max = 8))]
    n: u32,
}

#[derive(Deserialize, JsonSchema)]
struct ResizeArgs {
    /// How many images, 101 to 160.
    #[schemars(range(min = 101, max = 160))]
    images: u32,
}

#[derive(Clone)]
struct Photos {
    tool_router: ToolRouter<Self>,
}

/// Sends a progress notification when the client sent a token: rmcp leaves that to the tool.
async fn progress(peer: &Peer<RoleServer>, token: &Option<ProgressToken>, done: f64, total: f64) {
    if let Some(token) = token {
        let _ = peer
            .notify_progress(ProgressNotificationParam::new(token.clone(), done).with_total(total))
            .await;
    }
}

#[tool_router]
impl Photos {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Count to n, one step every 20 ms, reporting each step.")]
    async fn count(
        &self,
        Parameters(args): Parameters<CountArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        let n = args.n.clamp(1, 8);
        let token = meta.get_progress_token();
        for i in 1..=n {
            tokio::select! {
                _ = ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                _ = tokio::time::sleep(Duration::from_millis(20)) => {}
            }
            progress(&peer, &token, f64::from(i), f64::from(n)).await;
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("counted to {n}"))]))
    }

    #[tool(description = "Resize the images, reporting a percentage.")]
    async fn resize(
        &self,
        Parameters(args): Parameters<ResizeArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        let images = args.images.clamp(101, 160);
        let token = meta.get_progress_token();
        for i in 1..=images {
            tokio::select! {
                _ = ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                _ = tokio::time::sleep(Duration::from_millis(2)) => {}
            }
            // BUG: a rounded percentage repeats over >100 images
            progress(&peer, &token, f64::from(i * 100 / images), 100.0).await;
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("resized {images} images"))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Photos {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("photos", env!("CARGO_PKG_VERSION")))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Photos::new().serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
