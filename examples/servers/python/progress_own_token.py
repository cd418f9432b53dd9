"""Pitfall 1: progress sent with a token the server made up (``"task-1"``), whether or not asked.

The author skipped ``ctx.report_progress`` (which would have used the client's token, or sent
nothing) and called the session's lower-level ``send_progress_notification`` with a fixed id. ``related_request_id`` keeps the notifications on the request's own stream
(over Streamable HTTP, without it they go to the GET stream, or nowhere when none is open).
"""

import anyio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _work_args import StepMs, Steps

mcp = MCPServer("progress-own-token")


@mcp.tool()
async def work(
    ctx: Context,
    steps: Steps = 4,
    stepMs: StepMs = 20,
) -> str:
    """Do `steps` steps of `stepMs` ms each, reporting progress after each one."""
    for i in range(1, steps + 1):
        await anyio.sleep(stepMs / 1000)
        # BUG: the token is the client's to choose; "task-1" matches no request.
        await ctx.session.send_progress_notification(
            "task-1", i, steps, f"step {i} of {steps}", related_request_id=ctx.request_id
        )
    return f"done {steps}"


if __name__ == "__main__":
    serve(mcp)
