"""Pitfall 3(b): a catch-all turns the cancellation into "finish the job and return a result".

``except BaseException`` (a bare ``except:`` is the same) catches anyio's cancellation
(``asyncio.CancelledError`` on the asyncio backend). The author's intent: never lose a half-done
job, so finish the remaining steps and report the outcome as a tool result. anyio cancellation is
level-triggered (every later ``await`` in the cancelled scope raises again), so code that wants to
carry on has to shield itself, and this author does. On mcp 2.3.0 the returned result never
reaches the wire (the SDK drops any answer to a request the peer cancelled; over Streamable HTTP
it writes its own ``-32800 Request cancelled`` instead), so what is visible from outside is the
work going on after the cancel: progress for the cancelled request.
"""

import anyio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _work_args import StepMs, Steps

mcp = MCPServer("cancel-swallowed")


@mcp.tool()
async def work(
    ctx: Context,
    steps: Steps = 4,
    stepMs: StepMs = 20,
) -> str:
    """Do `steps` steps of `stepMs` ms each, reporting progress after each one."""
    done = 0
    try:
        for i in range(1, steps + 1):
            await anyio.sleep(stepMs / 1000)
            await ctx.report_progress(i, steps, f"step {i} of {steps}")
            done = i
        return f"done {steps}"
    except BaseException as exc:  # BUG: catches the cancellation too, and never re-raises it
        with anyio.CancelScope(shield=True):
            for i in range(done + 1, steps + 1):
                await anyio.sleep(stepMs / 1000)
                await ctx.report_progress(i, steps, f"step {i} of {steps} (after {type(exc).__name__})")
        return f"failed: {exc!r}; finished the remaining steps anyway"


if __name__ == "__main__":
    serve(mcp)
