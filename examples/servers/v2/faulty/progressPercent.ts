/**
 * Pitfall, on the 2.x packages, as the seed article writes it (2. "progress を増やし忘れて"):
 * progress sent as a percentage, `Math.floor(i / total * 100)`; with more items than 100 the same
 * value repeats, and the client drops the repeats (its bar freezes).
 * Flagged: `progress.increasing`.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'heavy-tools', version: '2.0.0' });
  server.registerTool('process', { inputSchema: z.object({ items: z.number().int().min(101).max(150) }) }, async ({ items }, ctx) => {
    const { signal, _meta } = ctx.mcpReq;
    const token = _meta?.progressToken;
    for (let i = 0; i < items; i++) {
      signal.throwIfAborted();
      // BUG (the article's pitfall 2): the rounded percentage repeats once there are more than 100 items.
      if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: Math.floor((i / items) * 100), total: 100 } });
    }
    return { content: [{ type: 'text', text: `${items} items` }] };
  });
  return server;
}
