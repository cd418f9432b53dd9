/**
 * Pitfall: a tool that never ends. Each call waits in a list until a batch of four is full; the
 * wait is a bare promise (no timer) that ignores the signal, so a cancelled, timed-out or
 * disconnected call waits forever, its request never let go.
 * Flagged: `cancel.never-ends`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const BATCH = 4;

export function createServer(): McpServer {
  const server = new McpServer({ name: 'batcher', version: '1.0.0' });
  const waiting: (() => void)[] = [];
  server.registerTool('enqueue', { inputSchema: { job: z.string().min(1).max(8) } }, async ({ job }) => {
    // BUG: nothing but a full batch settles this wait, and a cancel does not take the call out of it.
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length >= BATCH) for (const done of waiting.splice(0)) done();
    });
    return { content: [{ type: 'text', text: `${job}: done` }] };
  });
  return server;
}
