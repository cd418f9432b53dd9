"""A correct tool that takes 30 s: progress every second with the client's token, stops at once on a cancel.

``anyio.sleep`` is a checkpoint, so the SDK's cancellation (anyio cancels the handler's scope on
``notifications/cancelled``) interrupts the wait and propagates untouched. Slow is not stuck: a
fuzzer must wait for it (and cancel it while it works), not call it hung.
"""

import anyio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _slow import STEP_S, STEPS

mcp = MCPServer("slow-correct")


@mcp.tool()
async def work(ctx: Context) -> str:
    """Work for 30 s, reporting progress every second."""
    for i in range(1, STEPS + 1):
        await anyio.sleep(STEP_S)
        await ctx.report_progress(i, STEPS, f"second {i} of {STEPS}")
    return f"done after {STEPS} steps"


if __name__ == "__main__":
    serve(mcp)
