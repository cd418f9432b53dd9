"""Pitfall 2: progress as a rounded integer percentage over many small sub-steps, so values repeat.

160 sub-steps spread over ``steps * stepMs`` (at least 1 ms each): ``int(done / 160 * 100)`` gives
the same percentage to consecutive sub-steps, and each one is reported.
"""

import anyio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _work_args import StepMs, Steps

SUB_STEPS = 160
"""Enough sub-steps that a 0-100 integer percentage must repeat."""

mcp = MCPServer("progress-rounded")


@mcp.tool()
async def work(
    ctx: Context,
    steps: Steps = 4,
    stepMs: StepMs = 20,
) -> str:
    """Do `steps` steps of `stepMs` ms each, reporting progress as a percentage."""
    pause = max(0.001, steps * stepMs / 1000 / SUB_STEPS)
    for done in range(1, SUB_STEPS + 1):
        await anyio.sleep(pause)
        # BUG: rounding to a whole percent repeats values (160 sub-steps, 100 percents).
        await ctx.report_progress(int(done / SUB_STEPS * 100), 100, f"{done} of {SUB_STEPS}")
    return f"done {steps}"


if __name__ == "__main__":
    serve(mcp)
