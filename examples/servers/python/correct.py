"""The seed article's corrected tool, written with the SDK's high-level ``MCPServer`` (v1's FastMCP).

Progress only through ``ctx.report_progress`` (the SDK sends it only when the request carried
``_meta.progressToken``, with that token), ``progress`` counts finished steps, ``total`` is fixed,
and the wait is ``anyio.sleep``: a checkpoint, so the SDK's cancellation (anyio cancels the
handler's scope on ``notifications/cancelled``) interrupts it and propagates untouched.
"""

import anyio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _work_args import StepMs, Steps

mcp = MCPServer("correct")


@mcp.tool()
async def work(
    ctx: Context,
    steps: Steps = 4,
    stepMs: StepMs = 20,
) -> str:
    """Do `steps` steps of `stepMs` ms each, reporting progress after each one."""
    for i in range(1, steps + 1):
        await anyio.sleep(stepMs / 1000)
        await ctx.report_progress(i, steps, f"step {i} of {steps}")
    return f"done {steps}"


if __name__ == "__main__":
    serve(mcp)
