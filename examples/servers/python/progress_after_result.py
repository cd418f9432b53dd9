"""A background task sends one more progress after the tool has returned its result.

The author returns as soon as the work is done and leaves a "finishing" task behind that reports
100 % a moment later. ``ctx.report_progress`` would drop that late notification (on 2.3.0 the
request's back-channel is closed once the handler returns), so, like code ported from 1.x, it
sends with the request's token through the session: ``ctx.session.send_progress_notification``.
Over Streamable HTTP the request's POST stream has ended by then, so the SDK puts that
notification on the session's GET stream (dropped when the client has none open).
"""

import asyncio
import anyio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _work_args import StepMs, Steps

FINISH_DELAY_S = 0.005
"""How long the left-behind task waits before its last progress."""

mcp = MCPServer("progress-after-result")
_background: set[asyncio.Task[None]] = set()


@mcp.tool()
async def work(
    ctx: Context,
    steps: Steps = 4,
    stepMs: StepMs = 20,
) -> str:
    """Do `steps` steps of `stepMs` ms each, reporting progress after each one."""
    token = (ctx.request_context.meta or {}).get("progress_token")
    for i in range(1, steps + 1):
        await anyio.sleep(stepMs / 1000)
        await ctx.report_progress(i, steps + 1, f"step {i} of {steps + 1}")
    if token is not None:
        # BUG: the result goes out now; this task reports the "last step" after it.
        task = asyncio.create_task(_finish(ctx, token, steps + 1))
        _background.add(task)
        task.add_done_callback(_background.discard)
    return f"done {steps}"


async def _finish(ctx: Context, token: str | int, total: int) -> None:
    await asyncio.sleep(FINISH_DELAY_S)
    await ctx.session.send_progress_notification(token, total, total, "finished")


if __name__ == "__main__":
    serve(mcp)
