"""A Python MCP server as its author writes it on the first day: two tools, the SDK's decorator API.

``count`` is right: an ``async def`` that awaits between steps (so the SDK's cancel lands at the
next ``await``) and reports ``ctx.report_progress(i, total)``. ``resize`` has two common
pitfalls: it is a plain ``def`` (the SDK runs it in a worker thread that a cancel cannot stop, so
it keeps reporting progress after the client cancelled) and it reports a rounded percentage,
which repeats a value once there are more than 100 images.

``mcp`` 2.x names the server class ``MCPServer`` (``from mcp.server.mcpserver import Context,
MCPServer``); ``mcp`` 1.x and the ``fastmcp`` package call it ``FastMCP`` (``from
mcp.server.fastmcp import Context, FastMCP``). Nothing else here differs.

Check it (README, "Check your server"):

    python -m venv .venv && .venv/bin/pip install mcp==2.3.0
    npx mcp-sim check -- .venv/bin/python server.py
"""

import time
from typing import Annotated

import anyio
import anyio.from_thread
from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

mcp = MCPServer("photos")


@mcp.tool()
async def count(ctx: Context, n: Annotated[int, Field(ge=1, le=8)] = 4) -> str:
    """Count to n, one step every 20 ms, reporting each step."""
    for i in range(1, n + 1):
        await anyio.sleep(0.02)
        await ctx.report_progress(i, n)
    return f"counted to {n}"


@mcp.tool()
def resize(ctx: Context, images: Annotated[int, Field(ge=101, le=160)] = 120) -> str:
    """Resize the images, reporting a percentage."""
    for i in range(1, images + 1):
        time.sleep(0.002)  # the blocking work (an image library, requests.get): a thread nothing cancels
        anyio.from_thread.run(ctx.report_progress, round(i / images * 100), 100)
    return f"resized {images} images"


if __name__ == "__main__":
    mcp.run()
