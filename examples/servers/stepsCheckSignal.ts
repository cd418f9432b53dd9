/**
 * A correct tool that checks its signal between steps, as the seed article's loop does
 * (`extra.signal.throwIfAborted()` at the head of each iteration), and whose steps themselves
 * cannot be aborted (a fixed 20 ms of work each). A cancel that lands during the last step is
 * seen by no one: the tool returns its result right after that step. No AbortError was raised or
 * caught, so this is not a swallowed abort (the SDK drops the late result).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** One step of work that does not listen to any signal: short, and finished once started. */
const render = (page: number) => new Promise<string>((resolve) => setTimeout(() => resolve(`page ${page} rendered`), 20));

export function createServer(): McpServer {
  const server = new McpServer({ name: 'renderer', version: '1.0.0' });
  server.registerTool('render', { inputSchema: { pages: z.number().int().min(1).max(4) } }, async ({ pages }, extra) => {
    const lines: string[] = [];
    for (let page = 1; page <= pages; page++) {
      extra.signal.throwIfAborted(); // between steps: a cancel stops before the next page
      lines.push(await render(page));
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
