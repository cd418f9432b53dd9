"""mcp-sim's Python SDK test-bed client (testbeds/CLIENT.md), on the SDK's ``ClientSession``.

A thin interpreter of a client script (the caller's actions) against mcp-sim's scripted server,
written with the SDK's ordinary client API: ``stdio_client`` (spawning ``server.stdio``) or
``streamable_http_client`` (to ``server.url``), a ``ClientSession`` with sampling, elicitation and
list-roots callbacks (which is how the SDK declares those capabilities), ``initialize()``, then
``call_tool("run", {"call": label}, read_timeout_seconds=..., progress_callback=...)``.

- abort: each call runs in its own ``anyio.CancelScope``; an ``abort`` action cancels that scope
  (whether the SDK then writes ``notifications/cancelled`` is what is judged, never this file);
- close: the transport and the session are entered on an ``AsyncExitStack`` by the main task,
  while the calls run in a task group outside it; ``close`` unwinds the stack (the session, then
  the transport) with calls still in flight;
- the SDK's one error type (``MCPError`` on 2.x, ``McpError`` on 1.x) is classified by code and
  message: the SDK's read timeout (2.x ``REQUEST_TIMEOUT`` -32001, 1.x HTTP 408) is ``timeout``,
  ``CONNECTION_CLOSED`` -32000 "Connection closed" is ``closed``, anything else ``error``.

Side channel: ``mcp-sim-event {json}`` lines on stderr, flushed at once.

One source for every pinned release (testbed.json ``client.releases``): an import probe picks
the API. ``mcp`` 2.x has ``mcp_types``, float timeouts and a 2-tuple from the transports; 1.x has
``mcp.types``, ``timedelta`` timeouts and a 3-tuple (``get_session_id`` last).
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from datetime import timedelta
from typing import Any

import anyio
import anyio.lowlevel
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

try:  # mcp >= 2.0
    import mcp_types as types
    from mcp.shared.exceptions import MCPError as SdkError

    V2 = True
    TIMEOUT_CODE = types.REQUEST_TIMEOUT  # -32001
except ImportError:  # mcp 1.x
    import mcp.types as types  # type: ignore[no-redef]
    from mcp.shared.exceptions import McpError as SdkError  # type: ignore[no-redef]

    V2 = False
    TIMEOUT_CODE = 408  # BaseSession.send_request: httpx.codes.REQUEST_TIMEOUT

CONNECTION_CLOSED = types.CONNECTION_CLOSED  # -32000
SAMPLING_RESULT = {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "mcp-sim", "stopReason": "endTurn"}
ELICIT_RESULT = {"action": "accept", "content": {}}
ROOTS_RESULT: dict[str, Any] = {"roots": []}
# After the deadline's close, how long calls still in flight get to settle.
SETTLE_AFTER_CLOSE_S = 1.0


def event(body: dict[str, Any]) -> None:
    """One side-channel line; flushed at once so its order against the wire stays close."""
    sys.stderr.write("mcp-sim-event " + json.dumps(body, separators=(",", ":")) + "\n")
    sys.stderr.flush()


def seconds(ms: Any) -> Any:
    """A per-request timeout in the form this SDK line takes (2.x float seconds, 1.x timedelta)."""
    if ms is None:
        return None
    return ms / 1000 if V2 else timedelta(milliseconds=ms)


def classify(exc: BaseException) -> dict[str, Any]:
    """A call-end outcome for an exception the SDK's call raised."""
    if isinstance(exc, SdkError):
        code, message = exc.error.code, exc.error.message
        if code == TIMEOUT_CODE and "timed out" in message.lower():
            return {"outcome": "timeout", "message": message}
        if code == CONNECTION_CLOSED and message == "Connection closed":
            return {"outcome": "closed", "message": message}
        return {"outcome": "error", "code": code, "message": message}
    if isinstance(exc, (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)):
        # The session's streams are gone: a call made (or still writing) after the close.
        return {"outcome": "closed", "message": f"{type(exc).__name__}: {exc}"}
    return {"outcome": "other", "message": f"{type(exc).__name__}: {exc}"}


class Runner:
    def __init__(self, script: dict[str, Any]) -> None:
        self.script = script
        self.server = script["server"]
        self.actions = sorted(enumerate(script.get("actions", [])), key=lambda ia: (ia[1].get("atMs", 0), ia[0]))
        requests = script.get("serverRequests") or {}
        self.delay_ms = float(requests.get("delayMs", 0) or 0)
        self.hang = bool(requests.get("hang", False))
        self.deadline_ms = float(script.get("deadlineMs", 30000))
        self.scopes: dict[str, anyio.CancelScope] = {}
        self.running = 0
        self.settled = anyio.Event()
        self.closing = False
        self.closed = False
        self.stack = contextlib.AsyncExitStack()
        self.session: Any = None

    # -- the server's requests to the client ------------------------------------------------
    async def answer(self, method: str, ctx: Any, result: dict[str, Any]) -> dict[str, Any]:
        request_id = getattr(ctx, "request_id", None)
        ident = {"method": method} if request_id is None else {"method": method, "id": request_id}
        event({"event": "server-request", **ident})
        try:
            if self.hang:
                await anyio.sleep_forever()
            await anyio.sleep(self.delay_ms / 1000)
        except anyio.get_cancelled_exc_class():
            # The SDK cancelled this handler: the server's notifications/cancelled, or the close.
            if not self.closing:
                event({"event": "server-request-cancelled", **ident})
            event({"event": "server-request-end", **ident, "outcome": "aborted"})
            raise
        event({"event": "server-request-end", **ident, "outcome": "result"})
        return result

    async def sampling(self, ctx: Any, params: Any) -> Any:
        return types.CreateMessageResult.model_validate(await self.answer("sampling/createMessage", ctx, SAMPLING_RESULT))

    async def elicitation(self, ctx: Any, params: Any) -> Any:
        return types.ElicitResult.model_validate(await self.answer("elicitation/create", ctx, ELICIT_RESULT))

    async def list_roots(self, ctx: Any) -> Any:
        return types.ListRootsResult.model_validate(await self.answer("roots/list", ctx, ROOTS_RESULT))

    # -- connecting and closing --------------------------------------------------------------
    def transport(self) -> Any:
        if "stdio" in self.server:
            argv = [str(a) for a in self.server["stdio"]]
            return stdio_client(StdioServerParameters(command=argv[0], args=argv[1:]))
        if "url" in self.server:
            return streamable_http_client(str(self.server["url"]))
        raise ValueError("script.server: {stdio: [argv...]} or {url: ...} expected")

    async def connect(self) -> None:
        streams = await self.stack.enter_async_context(self.transport())
        read_stream, write_stream = streams[0], streams[1]  # 1.x adds get_session_id
        session = ClientSession(
            read_stream,
            write_stream,
            sampling_callback=self.sampling,
            elicitation_callback=self.elicitation,
            list_roots_callback=self.list_roots,
            client_info=types.Implementation(name="mcp-sim-client", version="1.0.0"),
        )
        self.session = await self.stack.enter_async_context(session)
        await self.session.initialize()

    async def close(self) -> None:
        if self.closed:
            return
        self.closing = True
        self.closed = True
        try:
            await self.stack.aclose()
        except Exception:  # noqa: BLE001 - the SDK's own failure on close: its traceback, as it is
            traceback.print_exc()
            sys.stderr.flush()

    # -- the caller's actions ----------------------------------------------------------------
    async def call(self, action: dict[str, Any]) -> None:
        label = str(action["call"])
        kwargs: dict[str, Any] = {"read_timeout_seconds": seconds(action.get("timeoutMs"))}
        if action.get("progress"):

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                body: dict[str, Any] = {"event": "progress", "call": label, "progress": progress}
                if total is not None:
                    body["total"] = total
                if message is not None:
                    body["message"] = message
                event(body)

            kwargs["progress_callback"] = on_progress
        # resetTimeoutOnProgress, maxTotalTimeoutMs: the SDK has no such option (testbed.json lacks).
        scope = anyio.CancelScope()
        self.scopes[label] = scope
        end: dict[str, Any] | None = None
        try:
            with scope:
                event({"event": "call-start", "call": label})
                try:
                    result = await self.session.call_tool("run", {"call": label}, **kwargs)
                except anyio.get_cancelled_exc_class():
                    raise
                except Exception as exc:  # noqa: BLE001 - every SDK failure is an outcome
                    end = classify(exc)
                else:
                    end = {"outcome": "result"}
                    if getattr(result, "is_error", None) or getattr(result, "isError", None):
                        end["isError"] = True
            if end is None and scope.cancelled_caught:
                end = {"outcome": "aborted", "message": "caller cancelled the call's anyio scope"}
        finally:
            if end is not None:
                event({"event": "call-end", "call": label, **end})
            self.running -= 1
            if self.running == 0:
                self.settled.set()

    async def run(self) -> int:
        async with anyio.create_task_group() as calls:
            try:
                await self.connect()
            except (Exception, anyio.get_cancelled_exc_class()) as exc:  # noqa: BLE001
                # Cannot connect: the client's own failure. A transport's failing task cancels this
                # task first; the transport's own error comes out of unwinding its task group.
                failure: BaseException = exc
                try:
                    await self.stack.aclose()
                except Exception as inner:  # noqa: BLE001
                    failure = inner
                traceback.print_exception(failure)
                print(f"mcp-sim client python: cannot connect: {type(failure).__name__}: {failure}", file=sys.stderr)
                return 1
            event({"event": "ready"})
            start = anyio.current_time()
            deadline = start + self.deadline_ms / 1000
            for _, action in self.actions:
                await anyio.sleep_until(start + float(action.get("atMs", 0)) / 1000)
                kind = action.get("kind")
                if kind == "call":
                    self.running += 1
                    self.settled = anyio.Event() if self.settled.is_set() else self.settled
                    calls.start_soon(self.call, action)
                    await anyio.lowlevel.checkpoint()  # let call-start go out in list order
                elif kind == "abort":
                    label = str(action["call"])
                    event({"event": "abort", "call": label})
                    scope = self.scopes.get(label)
                    if scope is not None:
                        scope.cancel()
                elif kind == "close":
                    event({"event": "close"})
                    await self.close()
                else:
                    print(f"mcp-sim client python: unknown action kind {kind!r}", file=sys.stderr)
            if self.running:
                with anyio.move_on_after(max(0.0, deadline - anyio.current_time())):
                    await self.settled.wait()
            if not self.closed:
                event({"event": "close"})
                await self.close()
                if self.running:
                    with anyio.move_on_after(SETTLE_AFTER_CLOSE_S):
                        await self.settled.wait()
            # A call the SDK never settled gets no call-end (that is the finding); stop waiting.
            calls.cancel_scope.cancel()
        event({"event": "closed"})
        # CLIENT.md: a stdio server the close left running shows as running (its input ends at exit).
        await anyio.sleep(0.3)
        return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--probe"]:
        print(f"mcp-sim testbed python client: {'mcp 2.x' if V2 else 'mcp 1.x'} API")
        return 0
    if len(argv) != 1:
        print("usage: client.py SCRIPT.json", file=sys.stderr)
        return 1
    try:
        with open(argv[0], encoding="utf-8") as f:
            script = json.load(f)
        if not isinstance(script, dict) or not isinstance(script.get("server"), dict):
            raise ValueError("a client script object with `server` expected")
        runner = Runner(script)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"mcp-sim client python: bad script {argv[0]}: {exc}", file=sys.stderr)
        return 1
    return anyio.run(runner.run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
