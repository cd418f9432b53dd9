"""A server as a Python author writes it on the first day: two tools, the SDK's decorator API.

``count`` is right: an ``async def`` that awaits between steps (so the SDK's cancel lands at the
next ``await``) and reports ``ctx.report_progress(i, total)``. ``resize`` has two of the common
pitfalls: it is a plain ``def`` (the SDK runs it in a worker thread that a cancel cannot stop)
and it reports a rounded percentage, which repeats once there are more than 100 items.

``mcp`` 2.x names the server class ``MCPServer`` (``mcp.server.mcpserver``); 1.x called it
``FastMCP`` (``from mcp.server.fastmcp import Context, FastMCP``). Nothing else here differs.
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
        time.sleep(0.002)  # the blocking work: a thread nothing cancels
        anyio.from_thread.run(ctx.report_progress, round(i / images * 100), 100)
    return f"resized {images} images"


if __name__ == "__main__":
    mcp.run()
