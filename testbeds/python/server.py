"""mcp-sim's Python SDK test bed (testbeds/PROGRAM.md), on the SDK's low-level ``Server``.

One tool ``run`` whose ``program`` argument is a scripted handler program (mcp-sim's
``HandlerProgram``), interpreted in real time with the SDK's ordinary handler API: sleeps are
``anyio.sleep`` (the SDK's cancellation interrupts them), downstream requests go through
``ctx.session.send_request`` tied to the tool call, progress through
``send_progress_notification``. Handler events go to stderr as ``mcp-sim-event {json}`` lines.

Abort policies, the way Python authors write them: ``honour`` lets the SDK's cancellation
(``anyio.get_cancelled_exc_class()``) propagate; ``swallow`` catches it and returns a result;
``ignore`` runs the steps inside a shielded ``CancelScope``, so the cancel is seen only after them.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata

RUN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"program": {"type": "object"}},
    "required": ["program"],
}
RESULT = types.CallToolResult(content=[types.TextContent(type="text", text="ok")])


def event(body: dict[str, Any]) -> None:
    """One side-channel line; flushed at once so its order against the wire stays close."""
    sys.stderr.write("mcp-sim-event " + json.dumps(body, separators=(",", ":")) + "\n")
    sys.stderr.flush()


def downstream(method: str) -> tuple[Any, type]:
    """The request a `call` step sends, with the same params as mcp-sim's simulator."""
    if method == "roots/list":
        return types.ListRootsRequest(), types.ListRootsResult
    if method == "sampling/createMessage":
        params = types.CreateMessageRequestParams(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text="run"))],
            max_tokens=16,
        )
        return types.CreateMessageRequest(params=params), types.CreateMessageResult
    if method == "elicitation/create":
        params = types.ElicitRequestFormParams(message="run", requested_schema={"type": "object", "properties": {}})
        return types.ElicitRequest(params=params), types.ElicitResult
    raise MCPError(-32602, f"call step: unknown method {method!r}")


async def interpret(ctx: ServerRequestContext, program: dict[str, Any], token: Any, ev: Any) -> None:
    rid = ctx.request_id
    for index, step in enumerate(program["steps"]):
        ev({"event": "step", "index": index})
        kind = step["kind"]
        if kind == "progress":
            fault = (program.get("faults") or {}).get("progressToken")
            t = f"invented-{index}" if fault == "invent" else token
            if t is not None:
                await ctx.session.send_progress_notification(
                    t, step["progress"], step.get("total"), step.get("message"), related_request_id=rid
                )
        elif kind == "sleep":
            await anyio.sleep(step["ms"] / 1000)
        elif kind == "call":
            request, result_type = downstream(step["method"])
            timeout = step.get("timeoutMs")
            try:
                await ctx.session.send_request(
                    request,
                    result_type,
                    request_read_timeout_seconds=timeout / 1000 if timeout is not None else None,
                    metadata=ServerMessageMetadata(related_request_id=rid),
                )
            except anyio.get_cancelled_exc_class():
                raise
            except Exception:  # a failed downstream call is the handler's business
                pass
    end = program["end"]
    if end["kind"] == "hang":
        await anyio.sleep_forever()


async def list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(
        tools=[types.Tool(name="run", description="Runs the scripted handler program in `program`.", input_schema=RUN_SCHEMA)]
    )


async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    program = (params.arguments or {}).get("program")
    if params.name != "run" or not isinstance(program, dict) or not isinstance(program.get("steps"), list):
        raise MCPError(-32602, f"tool {params.name!r} with arguments.program (a HandlerProgram) expected")
    rid = ctx.request_id
    call = (params.arguments or {}).get("call")

    def ev(body: dict[str, Any]) -> None:
        event({**body, "id": rid, "call": call})

    token = (ctx.meta or {}).get("progress_token")
    policy = program.get("onAbort", "honour")
    ev({"event": "handler-start"})
    try:
        if policy == "ignore":
            with anyio.CancelScope(shield=True):
                await interpret(ctx, program, token, ev)
            # Outside the shield: a cancel that came meanwhile shows as an expired deadline.
            if anyio.current_effective_deadline() == float("-inf"):
                ev({"event": "abort-observed"})
        else:
            await interpret(ctx, program, token, ev)
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
        raise MCPError(end["code"], end.get("message", "scripted error"))
    ev({"event": "handler-end", "outcome": "result"})
    return RESULT


server = Server("mcp-sim-testbed-python", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    if "--http" in sys.argv:
        print("mcp-sim testbed python: --http is not built yet (stdio only)", file=sys.stderr)
        sys.exit(2)
    anyio.run(main)
