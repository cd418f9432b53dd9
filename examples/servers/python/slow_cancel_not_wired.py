"""The 30 s tool with its cancel not wired: a plain ``def`` in a worker thread nothing can cancel.

As ``cancel_not_wired.py``, but slow: ``time.sleep`` in the thread ``MCPServer`` runs a sync tool
in, progress every second from the thread (``anyio.from_thread.run``) after the client cancelled.
The fuzzer's cancels land while the tool is still working, so it is found, not just waited for.
"""

import time

import anyio.from_thread
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _slow import STEP_S, STEPS

mcp = MCPServer("slow-cancel-not-wired")


@mcp.tool()
def work(ctx: Context) -> str:
    """Work for 30 s, reporting progress every second."""
    for i in range(1, STEPS + 1):
        time.sleep(STEP_S)  # BUG: blocking, in a thread nothing can cancel; no check either
        anyio.from_thread.run(ctx.report_progress, i, STEPS, f"second {i} of {STEPS}")
    return f"done after {STEPS} steps"


if __name__ == "__main__":
    serve(mcp)
