"""Seed 004's class in Python: a hand-written stateless Streamable HTTP endpoint whose cancelled
request's POST never completes.

The tool is ``correct.py``'s; the bug is in the transport the author wrote around the SDK's
server instead of using ``streamable_http_app`` (say, to mount MCP inside an existing Starlette
app). One long-lived ``Server.run`` session sits behind a single ``POST /mcp`` route, with no
session ids. A request POST parks on a waiter keyed by its JSON-RPC id and is resumed only when
a response with that id comes out of the server, which is exactly how the Swift SDK's
``StatelessHTTPServerTransport`` works. ``notifications/cancelled`` gets its 202, the SDK
cancels the handler and, as the protocol asks, writes no response, so nothing ever resumes the
waiter and the first POST hangs until the client gives up. Answers are ``application/json``
only, so server notifications (progress) have nowhere to go and are dropped. A second in-flight
request with the same id overwrites the first one's waiter (the seed's related bug): the first
POST hangs too.

HTTP only: ``post_hangs.py --http --port N`` (without ``--http`` it exits 2).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from anyio.abc import ObjectReceiveStream, ObjectSendStream
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.shared.message import SessionMessage
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from _serve import parse_args, run_http
from correct import work

mcp = MCPServer("post-hangs")
mcp.add_tool(work)
server = mcp._lowlevel_server  # the transport below drives the low-level server directly

Answer = types.JSONRPCResponse | types.JSONRPCError


class Waiter:
    """One parked POST: set once, by the server's answer for its id."""

    def __init__(self) -> None:
        self._event = anyio.Event()
        self._answer: Answer | None = None

    def resume(self, answer: Answer) -> None:
        self._answer = answer
        self._event.set()

    async def wait(self) -> Answer:
        await self._event.wait()
        assert self._answer is not None
        return self._answer


waiters: dict[types.RequestId, Waiter] = {}
to_server: ObjectSendStream[SessionMessage | Exception] | None = None


async def route_answers(from_server: ObjectReceiveStream[SessionMessage]) -> None:
    """Hand each response to the POST waiting for its id; drop everything else."""
    async for item in from_server:
        message = item.message
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError) and message.id is not None:
            waiter = waiters.pop(message.id, None)
            if waiter is not None:
                waiter.resume(message)
        # notifications (progress, logging) and server requests: no stream to put them on


async def handle_post(request: Request) -> Response:
    try:
        message = types.jsonrpc_message_adapter.validate_json(await request.body(), by_name=False)
    except ValidationError:
        error = {"code": types.PARSE_ERROR, "message": "expected one JSON-RPC message"}
        return JSONResponse({"jsonrpc": "2.0", "id": None, "error": error}, status_code=400)
    assert to_server is not None
    if not isinstance(message, types.JSONRPCRequest):
        await to_server.send(SessionMessage(message))
        return Response(status_code=202)
    waiter = Waiter()
    waiters[message.id] = waiter  # BUG (seed #254): a duplicate in-flight id overwrites the waiter
    await to_server.send(SessionMessage(message))
    answer = await waiter.wait()  # BUG (seed 004): only a response resumes it; a cancel never does
    return Response(answer.model_dump_json(by_alias=True, exclude_unset=True), media_type="application/json")


async def method_not_allowed(request: Request) -> Response:
    return Response(status_code=405, headers={"Allow": "POST"})


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    global to_server
    send_in, receive_in = anyio.create_memory_object_stream[SessionMessage | Exception](100)
    send_out, receive_out = anyio.create_memory_object_stream[SessionMessage](100)
    to_server = send_in
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.run, receive_in, send_out, server.create_initialization_options())
        tg.start_soon(route_answers, receive_out)
        yield
        tg.cancel_scope.cancel()


app = Starlette(
    routes=[
        Route("/mcp", handle_post, methods=["POST"]),
        Route("/mcp", method_not_allowed, methods=["GET", "DELETE"]),
    ],
    lifespan=lifespan,
)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if not args.http:
        print("post_hangs.py: --http is required: this server has no stdio mode; run it with --http --port N", file=sys.stderr)
        raise SystemExit(2)
    run_http(app, args.port)


if __name__ == "__main__":
    main()
