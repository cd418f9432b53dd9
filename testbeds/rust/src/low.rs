//! The low layer (testbeds/PROGRAM.md, "Layers"): `ServerHandler` written by hand, no macro:
//! `list_tools` lists `run` with a JSON Schema of its own, `call_tool` reads the program from the
//! request's raw arguments and hands the interpreter what rmcp's `RequestContext` holds (the
//! request's id, `_meta`, peer and cancellation token).

use std::sync::Arc;

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams, Tool,
    },
    serde_json::{self, Value, json},
    service::RequestContext,
};

use crate::program::{self, Call};
use crate::sdk::{self, CallToolOutput};

#[derive(Clone, Default)]
pub struct LowTestbed;

/// `run`'s input schema, as the low layers of the other beds write it.
fn run_tool() -> Tool {
    let schema = json!({"type": "object", "properties": {"program": {"type": "object"}}, "required": ["program"]});
    let Value::Object(schema) = schema else {
        unreachable!("a JSON object")
    };
    Tool::new("run", program::DESCRIPTION, Arc::new(schema))
}

impl ServerHandler for LowTestbed {
    fn get_info(&self) -> InitializeResult {
        program::server_info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![run_tool()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolOutput, McpError> {
        let mut args = request.arguments.unwrap_or_default();
        let (Some(p @ Value::Object(_)), "run") = (args.remove("program"), request.name.as_ref())
        else {
            return Err(McpError::invalid_params(
                "tool run: arguments.program (a HandlerProgram) expected",
                None,
            ));
        };
        let call = args
            .remove("call")
            .and_then(|c| c.as_str().map(String::from));
        let id = serde_json::to_value(&context.id).unwrap_or(Value::Null);
        let token = context.meta.get_progress_token();
        let (peer, ct) = (context.peer, context.ct);
        let result = program::interpret(
            p,
            call,
            Call {
                id,
                token,
                peer,
                ct,
            },
        )
        .await?;
        Ok(sdk::complete(result))
    }
}
