"""mcp-sim's Python SDK test bed (testbeds/PROGRAM.md): its low layer, on the SDK's low-level ``Server``.

One tool ``run`` whose ``program`` argument is a scripted handler program (mcp-sim's
``HandlerProgram``, interpreted by ``program.py``) in real time with the SDK's low-level handler
API: sleeps are ``anyio.sleep`` (the SDK's cancellation interrupts them), downstream requests go
through ``session.send_request`` tied to the tool call, progress through
``send_progress_notification``. Handler events go to stderr as ``mcp-sim-event {json}`` lines.
``--layer high`` runs the high layer instead (``high.py``: ``MCPServer``/``FastMCP`` with a
``Context``); ``--layer low`` (the default) this one.

``mcp`` 2.x has ``Server(on_call_tool=...)`` handlers given a ``ServerRequestContext``; 1.x has
decorators and ``server.request_context``. The 1.x tool handler is registered in
``request_handlers`` (the map its ``@call_tool()`` decorator fills) because that decorator turns
every exception, ``McpError`` included, into an ``isError`` tool result, and an ``error`` end is
a JSON-RPC error on every low layer. Requests and results are built with ``model_validate`` from
wire (camelCase) dicts, which both lines accept.

``--http --port P --mode M`` serves Streamable HTTP on 127.0.0.1:P at ``/mcp`` with the SDK's
``StreamableHTTPSessionManager`` (both lines), M one of ``stateful-sse``, ``stateful-json``,
``stateless-sse``, ``stateless-json``; the side channel stays on stderr; SIGTERM stops it.
"""

from __future__ import annotations

import contextlib
import sys
from datetime import timedelta
from typing import Any

import anyio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import ServerMessageMetadata

from program import DOWNSTREAM, V2, rpc_error, run_program, serve_app, types

RUN_TOOL: dict[str, Any] = {
    "name": "run",
    "description": "Runs the scripted handler program in `program`.",
    "inputSchema": {"type": "object", "properties": {"program": {"type": "object"}}, "required": ["program"]},
}
RESULT: dict[str, Any] = {"content": [{"type": "text", "text": "ok"}]}
HTTP_MODES = ("stateful-sse", "stateful-json", "stateless-sse", "stateless-json")
LAYERS = ("low", "high")


class Call:
    """The low layer's `program.Call`, on either SDK line: the request's id, progress token and session, by hand."""

    def __init__(self, request_id: Any, progress_token: Any, session: Any) -> None:
        self.request_id = request_id
        self.progress_token = progress_token
        self.session = session

    async def progress(self, invented: str | None, step: dict[str, Any]) -> None:
        token = invented if invented is not None else self.progress_token
        if token is None:
            return
        await self.session.send_progress_notification(
            token, step["progress"], step.get("total"), step.get("message"), related_request_id=self.request_id
        )

    async def request(self, method: str, timeout_ms: float | None) -> None:
        if method not in DOWNSTREAM:
            raise rpc_error(-32602, f"call step: unknown method {method!r}")
        wire, request_type, result_type = DOWNSTREAM[method]
        request = request_type.model_validate(wire)
        seconds = timeout_ms / 1000 if timeout_ms is not None else None
        metadata = ServerMessageMetadata(related_request_id=self.request_id)
        if V2:
            await self.session.send_request(request, result_type, request_read_timeout_seconds=seconds, metadata=metadata)
        else:
            await self.session.send_request(
                types.ServerRequest(request),
                result_type,
                request_read_timeout_seconds=timedelta(seconds=seconds) if seconds is not None else None,
                metadata=metadata,
            )


async def run_tool(call: Call, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """The `run` tool: checks its arguments, interprets the program, returns the result's wire dict."""
    program = (arguments or {}).get("program")
    if name != "run" or not isinstance(program, dict) or not isinstance(program.get("steps"), list):
        raise rpc_error(-32602, f"tool {name!r} with arguments.program (a HandlerProgram) expected")
    return await run_program(call, program, (arguments or {}).get("call"), RESULT)


def make_server() -> Server:
    if V2:
        from mcp.server.context import ServerRequestContext

        async def list_tools(ctx: ServerRequestContext, params: Any) -> Any:
            return types.ListToolsResult.model_validate({"tools": [RUN_TOOL]})

        async def call_tool(ctx: ServerRequestContext, params: Any) -> Any:
            call = Call(ctx.request_id, (ctx.meta or {}).get("progress_token"), ctx.session)
            return types.CallToolResult.model_validate(await run_tool(call, params.name, params.arguments))

        return Server("mcp-sim-testbed-python", on_list_tools=list_tools, on_call_tool=call_tool)

    server = Server("mcp-sim-testbed-python")

    @server.list_tools()
    async def list_tools_v1() -> list[Any]:
        return [types.Tool.model_validate(RUN_TOOL)]

    async def call_tool_v1(req: Any) -> Any:
        ctx = server.request_context
        token = ctx.meta.progressToken if ctx.meta is not None else None
        result = await run_tool(Call(ctx.request_id, token, ctx.session), req.params.name, req.params.arguments)
        return types.ServerResult(types.CallToolResult.model_validate(result))

    server.request_handlers[types.CallToolRequest] = call_tool_v1
    return server


async def serve_stdio(server: Server) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve_http(server: Server, port: int, mode: str) -> None:
    """Streamable HTTP on 127.0.0.1:`port`/mcp in `mode`, until SIGTERM (uvicorn's own handler)."""
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Route

    stateful, response = mode.split("-")
    manager = StreamableHTTPSessionManager(app=server, json_response=response == "json", stateless=stateful == "stateless")

    class Endpoint:
        """The ASGI app at /mcp: every method goes to the SDK's session manager."""

        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any):
        async with manager.run():
            yield

    serve_app(Starlette(routes=[Route("/mcp", endpoint=Endpoint())], lifespan=lifespan), port)


def flag(argv: list[str], name: str, default: str) -> str:
    """The value after `name`, or `default` when it is not given."""
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv: list[str]) -> int:
    layer = flag(argv, "--layer", "low")
    if layer not in LAYERS:
        print(f"mcp-sim testbed python: unknown --layer {layer!r} (one of {', '.join(LAYERS)})", file=sys.stderr)
        return 2
    if "--probe" in argv:
        import high

        make_server()
        high.make_server(stateless=False, json_response=False)
        print(f"mcp-sim testbed python: {'mcp 2.x' if V2 else 'mcp 1.x'} API, layers {', '.join(LAYERS)}")
        return 0
    if "--http" not in argv:
        if layer == "high":
            import high

            anyio.run(high.serve_stdio, high.make_server(stateless=False, json_response=False))
        else:
            anyio.run(serve_stdio, make_server())
        return 0
    try:
        port = int(argv[argv.index("--port") + 1])
        mode = flag(argv, "--mode", "stateful-sse")
    except (ValueError, IndexError):
        print("usage: server.py [--layer low|high] --http --port P [--mode " + "|".join(HTTP_MODES) + "]", file=sys.stderr)
        return 2
    if mode not in HTTP_MODES:
        print(f"mcp-sim testbed python: unknown mode {mode!r} (one of {', '.join(HTTP_MODES)})", file=sys.stderr)
        return 2
    if layer == "high":
        import high

        stateless, json_response = mode.startswith("stateless"), mode.endswith("json")
        serve_app(high.http_app(high.make_server(stateless, json_response), stateless, json_response), port)
    else:
        serve_http(make_server(), port, mode)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
