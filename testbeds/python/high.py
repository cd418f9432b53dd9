"""mcp-sim's Python SDK test bed (testbeds/PROGRAM.md): its high layer, on ``MCPServer`` (2.x) or
``FastMCP`` (1.x), the API most Python servers are written with.

The same program as the low layer (``program.py``), as a tool function written the way that API
documents it: ``@server.tool()`` on ``async def run(program: dict, ctx: Context, call: str | None)``,
its arguments validated by the SDK from the signature, ``-> str``. What the low layer does by hand
this one asks of the ``Context``: progress through ``ctx.report_progress`` (the SDK reads the
request's token, and sends nothing without one), an elicitation through ``ctx.elicit`` (an empty
pydantic model as its schema), sampling and roots through ``ctx.session``; a ``call`` step's
``timeoutMs`` is ``anyio.fail_after`` around it (the ``Context`` takes no timeout). An ``error``
end raises the SDK's error, which the layer answers its own way (1.x: an ``isError`` result). The
cancel reaches the tool function as the SDK's cancellation of its task, as on the low layer. An
invented progress token (a fault the ``Context`` cannot write) goes through ``ctx.session``.

Deliberately without ``from __future__ import annotations``: the SDK reads the tool's signature.
"""

import contextlib
import warnings
from typing import Any, Optional

import anyio
from pydantic import BaseModel

from program import V2, rpc_error, run_program, types

if V2:
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver import MCPServer as HighServer
else:
    from mcp.server.fastmcp import Context  # type: ignore[no-redef]
    from mcp.server.fastmcp import FastMCP as HighServer  # type: ignore[no-redef]

NAME = "mcp-sim-testbed-python"
DESCRIPTION = "Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md)."


class Empty(BaseModel):
    """The schema of a `call` step's elicitation: an object with no fields."""


class ContextCall:
    """The high layer's `program.Call`: what the tool function's ``Context`` offers."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        # The JSON-RPC id as the SDK holds it (``ctx.request_id`` is its text), for the side channel.
        self.request_id = ctx.request_context.request_id

    async def progress(self, invented: Optional[str], step: dict[str, Any]) -> None:
        if invented is None:
            await self.ctx.report_progress(step["progress"], step.get("total"), step.get("message"))
        else:
            await self.ctx.session.send_progress_notification(
                invented, step["progress"], step.get("total"), step.get("message"), related_request_id=self.ctx.request_id
            )

    async def request(self, method: str, timeout_ms: Optional[float]) -> None:
        deadline = anyio.fail_after(timeout_ms / 1000) if timeout_ms is not None else contextlib.nullcontext()
        with deadline:
            if method == "roots/list":
                await self.ctx.session.list_roots()
            elif method == "sampling/createMessage":
                message = types.SamplingMessage(role="user", content=types.TextContent(type="text", text="run"))
                await self.ctx.session.create_message(messages=[message], max_tokens=16, related_request_id=self.ctx.request_id)
            elif method == "elicitation/create":
                await self.ctx.elicit(message="run", schema=Empty)
            else:
                raise rpc_error(-32602, f"call step: unknown method {method!r}")


def make_server(stateless: bool, json_response: bool) -> Any:
    """The server with its one tool; 1.x takes its HTTP mode here, 2.x when its app is made."""
    if V2:
        server = HighServer(NAME, log_level="WARNING")
    else:
        # pydantic-settings warns of FastMCP's own Settings model on 1.x's pins: noise on the side channel's stream.
        warnings.filterwarnings("ignore", message="Field 'lifespan' has an incomplete definition")
        server = HighServer(NAME, log_level="WARNING", stateless_http=stateless, json_response=json_response)

    @server.tool(name="run", description=DESCRIPTION)
    async def run(program: dict[str, Any], ctx: Context, call: Optional[str] = None) -> str:
        if not isinstance(program.get("steps"), list) or not isinstance(program.get("end"), dict):
            raise rpc_error(-32602, "tool run: arguments.program (a HandlerProgram) expected")
        return await run_program(ContextCall(ctx), program, call, "ok")

    return server


async def serve_stdio(server: Any) -> None:
    await server.run_stdio_async()


def http_app(server: Any, stateless: bool, json_response: bool) -> Any:
    """The SDK's own Starlette app for Streamable HTTP at /mcp (1.x: in the mode the server was made with)."""
    if not V2:
        return server.streamable_http_app()
    return server.streamable_http_app(streamable_http_path="/mcp", json_response=json_response, stateless_http=stateless)
