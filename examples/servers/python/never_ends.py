"""A tool that awaits a result nothing ever delivers.

The author parks the call on a future that a callback was meant to resolve, and nothing does. An
uncancelled call is never answered. On mcp 2.3.0 a cancel still ends it: anyio cancels whatever
the handler awaits, so a cancelled call settles silently and stdin EOF still ends the process.
"""

import asyncio
from mcp.server.mcpserver import Context, MCPServer

from _serve import serve
from _work_args import StepMs, Steps

mcp = MCPServer("never-ends")
_pending: list[asyncio.Future[str]] = []


@mcp.tool()
async def work(
    ctx: Context,
    steps: Steps = 4,
    stepMs: StepMs = 20,
) -> str:
    """Do `steps` steps of `stepMs` ms each (waits for a worker that never answers)."""
    result: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    _pending.append(result)  # BUG: nothing ever calls result.set_result(...)
    return await result


if __name__ == "__main__":
    serve(mcp)
