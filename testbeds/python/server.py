"""mcp-sim's Python SDK test bed (testbeds/PROGRAM.md), on the SDK's low-level ``Server``.

One tool ``run`` whose ``program`` argument is a scripted handler program (mcp-sim's
``HandlerProgram``), interpreted in real time with the SDK's ordinary handler API: sleeps are
``anyio.sleep`` (the SDK's cancellation interrupts them), downstream requests go through
``session.send_request`` tied to the tool call, progress through ``send_progress_notification``.
Handler events go to stderr as ``mcp-sim-event {json}`` lines.

Abort policies, the way Python authors write them: ``honour`` lets the SDK's cancellation
(``anyio.get_cancelled_exc_class()``) propagate; ``swallow`` catches it and returns a result;
``ignore`` runs the steps inside a shielded ``CancelScope``, so the cancel is seen only after them.

One source for every pinned release (testbed.json ``releases``): an import probe picks the API.
``mcp`` 2.x has the ``mcp_types`` package and ``Server(on_call_tool=...)`` handlers given a
``ServerRequestContext``; 1.x has ``mcp.types``, decorators and ``server.request_context``. The
1.x tool handler is registered in ``request_handlers`` (the map its ``@call_tool()`` decorator
fills) because that decorator turns every exception, ``McpError`` included, into an ``isError``
tool result, and an ``error`` end is a JSON-RPC error on every bed. Requests and results are built
with ``model_validate`` from wire (camelCase) dicts, which both lines accept.

``--http --port P --mode M`` serves Streamable HTTP on 127.0.0.1:P at ``/mcp`` with the SDK's
``StreamableHTTPSessionManager`` (both lines), M one of ``stateful-sse``, ``stateful-json``,
``stateless-sse``, ``stateless-json``; the side channel stays on stderr; SIGTERM stops it.
"""

from __future__ import annotations

import contextlib
import json
import sys
from datetime import timedelta
from typing import Any

import anyio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import ServerMessageMetadata

try:  # mcp >= 2.0
    import mcp_types as types
    from mcp.shared.exceptions import MCPError

    V2 = True
except ImportError:  # mcp 1.x
    import mcp.types as types  # type: ignore[no-redef]
    from mcp.shared.exceptions import McpError

    V2 = False

RUN_TOOL: dict[str, Any] = {
    "name": "run",
    "description": "Runs the scripted handler program in `program`.",
    "inputSchema": {"type": "object", "properties": {"program": {"type": "object"}}, "required": ["program"]},
}
RESULT: dict[str, Any] = {"content": [{"type": "text", "text": "ok"}]}
HTTP_MODES = ("stateful-sse", "stateful-json", "stateless-sse", "stateless-json")

# The request each `call` step sends, as wire dicts (the same params as mcp-sim's simulator).
DOWNSTREAM: dict[str, tuple[dict[str, Any], Any, Any]] = {
    "roots/list": ({"method": "roots/list"}, types.ListRootsRequest, types.ListRootsResult),
    "sampling/createMessage": (
        {
            "method": "sampling/createMessage",
            "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "run"}}], "maxTokens": 16},
        },
        types.CreateMessageRequest,
        types.CreateMessageResult,
    ),
    "elicitation/create": (
        {
            "method": "elicitation/create",
            "params": {"mode": "form", "message": "run", "requestedSchema": {"type": "object", "properties": {}}},
        },
        types.ElicitRequest,
        types.ElicitResult,
    ),
}


def event(body: dict[str, Any]) -> None:
    """One side-channel line; flushed at once so its order against the wire stays close."""
    sys.stderr.write("mcp-sim-event " + json.dumps(body, separators=(",", ":")) + "\n")
    sys.stderr.flush()


def rpc_error(code: int, message: str) -> Exception:
    """The exception the SDK's request loop writes as JSON-RPC error `code`."""
    return MCPError(code, message) if V2 else McpError(types.ErrorData(code=code, message=message))


class Call:
    """What the interpreter needs of one tool call, on either SDK line: its id, progress token and session."""

    def __init__(self, request_id: Any, progress_token: Any, session: Any) -> None:
        self.request_id = request_id
        self.progress_token = progress_token
        self.session = session

    async def progress(self, token: Any, step: dict[str, Any]) -> None:
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


async def interpret(call: Call, program: dict[str, Any], ev: Any) -> None:
    for index, step in enumerate(program["steps"]):
        ev({"event": "step", "index": index})
        kind = step["kind"]
        if kind == "progress":
            fault = (program.get("faults") or {}).get("progressToken")
            token = f"invented-{index}" if fault == "invent" else call.progress_token
            if token is not None:
                await call.progress(token, step)
        elif kind == "sleep":
            await anyio.sleep(step["ms"] / 1000)
        elif kind == "call":
            try:
                await call.request(step["method"], step.get("timeoutMs"))
            except anyio.get_cancelled_exc_class():
                raise
            except Exception:  # a failed downstream call is the handler's business
                pass
    if program["end"]["kind"] == "hang":
        await anyio.sleep_forever()


async def run_tool(call: Call, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """The `run` tool: interprets the program, writes the side channel, returns the result's wire dict."""
    program = (arguments or {}).get("program")
    if name != "run" or not isinstance(program, dict) or not isinstance(program.get("steps"), list):
        raise rpc_error(-32602, f"tool {name!r} with arguments.program (a HandlerProgram) expected")
    label = (arguments or {}).get("call")

    def ev(body: dict[str, Any]) -> None:
        event({**body, "id": call.request_id, "call": label})

    policy = program.get("onAbort", "honour")
    ev({"event": "handler-start"})
    try:
        if policy == "ignore":
            with anyio.CancelScope(shield=True):
                await interpret(call, program, ev)
            # Outside the shield: a cancel that came meanwhile shows as an expired deadline.
            if anyio.current_effective_deadline() == float("-inf"):
                ev({"event": "abort-observed"})
        else:
            await interpret(call, program, ev)
    except anyio.get_cancelled_exc_class():
        ev({"event": "abort-observed"})
        if policy == "swallow":
            ev({"event": "handler-end", "outcome": "swallowed"})
            return RESULT
        ev({"event": "handler-end", "outcome": "aborted"})
        raise
    end = program["end"]
    if end["kind"] == "error":
        ev({"event": "handler-end", "outcome": "error"})
        raise rpc_error(end["code"], end.get("message", "scripted error"))
    ev({"event": "handler-end", "outcome": "result"})
    return RESULT


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
    import uvicorn
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

    app = Starlette(routes=[Route("/mcp", endpoint=Endpoint())], lifespan=lifespan)
    # A short graceful shutdown: an open SSE stream would otherwise hold SIGTERM's exit.
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1)


def main(argv: list[str]) -> int:
    if "--probe" in argv:
        make_server()
        print(f"mcp-sim testbed python: {'mcp 2.x' if V2 else 'mcp 1.x'} API")
        return 0
    server = make_server()
    if "--http" not in argv:
        anyio.run(serve_stdio, server)
        return 0
    try:
        port = int(argv[argv.index("--port") + 1])
        mode = argv[argv.index("--mode") + 1] if "--mode" in argv else "stateful-sse"
    except (ValueError, IndexError):
        print("usage: server.py --http --port P [--mode " + "|".join(HTTP_MODES) + "]", file=sys.stderr)
        return 2
    if mode not in HTTP_MODES:
        print(f"mcp-sim testbed python: unknown mode {mode!r} (one of {', '.join(HTTP_MODES)})", file=sys.stderr)
        return 2
    serve_http(server, port, mode)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
