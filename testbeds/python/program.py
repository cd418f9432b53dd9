"""The scripted handler program of mcp-sim's Python SDK test bed (testbeds/PROGRAM.md), shared by
its two interpreters: ``server.py``'s low layer (the SDK's low-level ``Server``) and ``high.py``'s
high layer (``MCPServer``, ``FastMCP`` in 1.x, with a ``Context``). Each gives the program a
``Call``: how that layer sends progress and the requests of ``call`` steps; the steps, the abort
policies and the side channel are the same on both, so one oracle judges both.

Abort policies, the way Python authors write them: ``honour`` lets the SDK's cancellation
(``anyio.get_cancelled_exc_class()``) propagate; ``swallow`` catches it and returns a result;
``ignore`` runs the steps inside a shielded ``CancelScope``, so the cancel is seen only after them.

One source for every pinned release (testbed.json ``releases``): an import probe picks the API.
``mcp`` 2.x has the ``mcp_types`` package; 1.x has ``mcp.types``.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Protocol

import anyio

try:  # mcp >= 2.0
    import mcp_types as types
    from mcp.shared.exceptions import MCPError

    V2 = True
except ImportError:  # mcp 1.x
    import mcp.types as types  # type: ignore[no-redef]
    from mcp.shared.exceptions import McpError

    V2 = False

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


class Call(Protocol):
    """What a layer gives the program of one tool call: its id, and how it speaks to the client."""

    request_id: Any

    async def progress(self, invented: str | None, step: dict[str, Any]) -> None:
        """Sends a progress step: with the request's own token, only if it carried one; with `invented` whether or not."""

    async def request(self, method: str, timeout_ms: float | None) -> None:
        """Sends a `call` step's request to the client and awaits its answer."""


async def interpret(call: Call, program: dict[str, Any], ev: Any) -> None:
    for index, step in enumerate(program["steps"]):
        ev({"event": "step", "index": index})
        kind = step["kind"]
        if kind == "progress":
            fault = (program.get("faults") or {}).get("progressToken")
            await call.progress(f"invented-{index}" if fault == "invent" else None, step)
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


async def run_program(call: Call, program: dict[str, Any], label: Any, result: Any) -> Any:
    """Interprets `program`, writes the side channel, and returns `result` (an `error` end raises the SDK's error)."""

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
            return result
        ev({"event": "handler-end", "outcome": "aborted"})
        raise
    end = program["end"]
    if end["kind"] == "error":
        ev({"event": "handler-end", "outcome": "error"})
        raise rpc_error(end["code"], end.get("message", "scripted error"))
    ev({"event": "handler-end", "outcome": "result"})
    return result


def serve_app(app: Any, port: int) -> None:
    """A Starlette app on 127.0.0.1:`port` until SIGTERM (uvicorn's own handler)."""
    import uvicorn

    # A short graceful shutdown: an open SSE stream would otherwise hold SIGTERM's exit.
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1)
