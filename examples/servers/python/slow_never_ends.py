"""The 30 s tool that never ends: it reports progress for 5 s, then waits on what nothing resolves.

Slow is not stuck, but stuck is stuck: after its fifth progress the tool awaits a future no one
ever completes. A fuzzer that learned the tool can work for a while must still find the call that
went silent, and within its budget.
"""

import asyncio

import anyio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _slow import STEP_S, STEPS

mcp = MCPServer("slow-never-ends")
_pending: list[asyncio.Future[str]] = []


@mcp.tool()
async def work(ctx: Context) -> str:
    """Work for 30 s, reporting progress every second (stops reporting after 5 s, and never ends)."""
    for i in range(1, 6):
        await anyio.sleep(STEP_S)
        await ctx.report_progress(i, STEPS, f"second {i} of {STEPS}")
    result: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    _pending.append(result)  # BUG: nothing ever calls result.set_result(...)
    return await result


if __name__ == "__main__":
    serve(mcp)
