"""Pitfall 3(a): the cancellation never reaches the work, which keeps reporting progress.

A plain ``def`` tool doing blocking work (``time.sleep`` standing in for ``requests.get``, a
subprocess, a database call). ``MCPServer`` runs a sync tool in a worker thread
(``anyio.to_thread.run_sync``), and anyio cannot interrupt a thread: on
``notifications/cancelled`` the handler's scope is cancelled, but the cancel is only delivered
when the thread returns. Meanwhile each step still reports progress from the thread
(``anyio.from_thread.run``), after the client cancelled.
"""

import time
import anyio.from_thread
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _work_args import StepMs, Steps

mcp = MCPServer("cancel-not-wired")


@mcp.tool()
def work(
    ctx: Context,
    steps: Steps = 4,
    stepMs: StepMs = 20,
) -> str:
    """Do `steps` steps of `stepMs` ms each, reporting progress after each one."""
    for i in range(1, steps + 1):
        time.sleep(stepMs / 1000)  # BUG: blocking, in a thread nothing can cancel; no check either
        anyio.from_thread.run(ctx.report_progress, i, steps, f"step {i} of {steps}")
    return f"done {steps}"


if __name__ == "__main__":
    serve(mcp)
