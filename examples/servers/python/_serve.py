"""Shared command line of the example servers: stdio by default, Streamable HTTP with --http.

Every server in this folder ends with ``serve(server)`` so that each file holds only what its
author wrote (the tool) and the transports stay the SDK's own: ``MCPServer.run("stdio")`` /
``Server.run`` over ``stdio_server()``, and the SDK's ``streamable_http_app`` served by uvicorn.
The one thing added is uvicorn's ``timeout_graceful_shutdown``, so SIGTERM ends the process even
while a POST or SSE stream is still open (uvicorn waits for open connections forever otherwise).
"""

from __future__ import annotations

import argparse
from typing import Any

import anyio
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server

HOST = "127.0.0.1"
"""Loopback only: an example server must never be reachable from another machine."""

GRACEFUL_SHUTDOWN_S = 1
"""Seconds uvicorn waits for open connections after SIGTERM before closing them."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="mcp-sim Python example server (stdio by default)")
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP on 127.0.0.1 instead of stdio")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    parser.add_argument("--stateless", action="store_true", help="HTTP: no sessions (stateless_http=True)")
    parser.add_argument("--json", action="store_true", help="HTTP: answer each POST with one JSON body, not SSE")
    return parser.parse_args(argv)


def serve(server: MCPServer | Server, argv: list[str] | None = None) -> None:
    """Run ``server`` on the transport the command line selects; returns when the transport ends."""
    args = parse_args(argv)
    if not args.http:
        if isinstance(server, MCPServer):
            server.run("stdio")  # returns on stdin EOF: the SDK cancels in-flight handlers
        else:
            anyio.run(_run_lowlevel_stdio, server)
        return
    app = server.streamable_http_app(json_response=args.json, stateless_http=args.stateless, host=HOST)
    run_http(app, args.port)


def run_http(app: Any, port: int) -> None:
    """Serve an ASGI app on 127.0.0.1 with uvicorn until SIGTERM or SIGINT."""
    import uvicorn  # imported here: stdio runs skip its import cost

    config = uvicorn.Config(
        app, host=HOST, port=port, log_level="warning", timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S
    )
    uvicorn.Server(config).run()


async def _run_lowlevel_stdio(server: Server) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
