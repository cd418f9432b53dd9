"""Pitfall 2, second half: ``total`` grows half way ("it was 80, not 50").

The author announced ``steps`` items, found more half way through and raised ``total`` to
``steps * 8 // 5`` (50 -> 80), instead of leaving ``total`` out while it is unknown.
"""

import anyio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _work_args import StepMs, Steps

mcp = MCPServer("total-changes")


@mcp.tool()
async def work(
    ctx: Context,
    steps: Steps = 4,
    stepMs: StepMs = 20,
) -> str:
    """Do `steps` steps of `stepMs` ms each, reporting progress after each one."""
    total = steps
    for i in range(1, steps + 1):
        await anyio.sleep(stepMs / 1000)
        if i > steps // 2:
            total = max(steps + 1, steps * 8 // 5)  # BUG: "it was 80, not 50": the total moves
        await ctx.report_progress(i, total, f"item {i} of {total}")
    return f"done {steps}"


if __name__ == "__main__":
    serve(mcp)
