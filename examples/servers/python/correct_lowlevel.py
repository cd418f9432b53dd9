"""The corrected tool on the SDK's low-level ``Server``: handlers passed to the constructor.

Same behaviour as ``correct.py``. Low-level users read the token themselves, so this file shows
the article's rule in code: send ``notifications/progress`` only when ``_meta.progressToken`` came
with the request, with that token. ``anyio.sleep`` is interrupted by the SDK's cancellation.
"""

from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from _serve import serve

WORK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "steps": {"type": "integer", "minimum": 1, "maximum": 8, "default": 4},
        "stepMs": {"type": "integer", "minimum": 5, "maximum": 40, "default": 20},
    },
}


async def list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(
        tools=[types.Tool(name="work", description="Do steps of stepMs ms, with progress.", input_schema=WORK_SCHEMA)]
    )


async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name != "work":
        raise ValueError(f"unknown tool {params.name!r}")
    args = params.arguments or {}
    steps, step_ms = int(args.get("steps", 4)), int(args.get("stepMs", 20))
    token = (ctx.meta or {}).get("progress_token")
    for i in range(1, steps + 1):
        await anyio.sleep(step_ms / 1000)
        if token is not None:
            await ctx.session.send_progress_notification(
                token, i, steps, f"step {i} of {steps}", related_request_id=ctx.request_id
            )
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"done {steps}")])


server = Server("correct-lowlevel", on_list_tools=list_tools, on_call_tool=call_tool)

if __name__ == "__main__":
    serve(server)
