//! The high layer (testbeds/PROGRAM.md, "Layers"): the `run` tool written with rmcp's tool macros,
//! the way its documentation writes one: `#[tool_router]` on the server's methods, `#[tool]` on
//! `run`, its arguments a `Parameters<RunArgs>` (rmcp derives the input schema with schemars and
//! deserializes the arguments), and extractors for the request's id, `_meta`, `Peer` and
//! `CancellationToken`; `#[tool_handler]` makes the router the server's `call_tool` and `list_tools`.

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler,
    handler::server::{common::RequestId, router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, InitializeResult},
    serde_json::{self, Value},
    tool, tool_handler, tool_router,
};
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

use crate::program::{self, Call};
use crate::sdk::RequestMeta;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct RunArgs {
    /// The scripted handler program (mcp-sim's HandlerProgram).
    program: Value,
    /// The call's label, echoed on the side channel.
    call: Option<String>,
}

#[derive(Clone)]
pub struct Testbed {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Testbed {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md)"
    )]
    async fn run(
        &self,
        Parameters(args): Parameters<RunArgs>,
        RequestId(request_id): RequestId,
        meta: RequestMeta,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, McpError> {
        let id = serde_json::to_value(&request_id).unwrap_or(Value::Null);
        let token = meta.get_progress_token();
        program::interpret(
            args.program,
            args.call,
            Call {
                id,
                token,
                peer,
                ct,
            },
        )
        .await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Testbed {
    fn get_info(&self) -> InitializeResult {
        program::server_info()
    }
}
