/**
 * Pitfall, as the seed article writes it (2. "progress を増やし忘れて"): progress sent as a
 * percentage, `Math.floor(i / total * 100)`; with more items than 100 the same value repeats,
 * and the client drops the repeats (its bar freezes).
 * Flagged: `progress.increasing`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'heavy-tools', version: '1.0.0' });
  server.registerTool('process', { inputSchema: { items: z.number().int().min(101).max(150) } }, async ({ items }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 0; i < items; i++) {
      extra.signal.throwIfAborted();
      // BUG (the article's pitfall 2): the rounded percentage repeats once there are more than 100 items.
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: Math.floor((i / items) * 100), total: 100 } });
    }
    return { content: [{ type: 'text', text: `${items} items` }] };
  });
  return server;
}
