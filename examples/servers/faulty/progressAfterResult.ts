/**
 * Pitfall: progress after the result. The handler reports its final progress from a timer, without awaiting it, and returns first.
 * Flagged: `progress.after-response`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    const token = extra._meta?.progressToken;
    const lines: string[] = [];
    for (const url of urls) {
      lines.push(`${url}: ${(await fetch(url, { signal: extra.signal })).status}`);
      extra.signal.throwIfAborted();
    }
    // BUG: fire-and-forget: the result goes out before this progress does.
    if (token !== undefined) setTimeout(() => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: urls.length, total: urls.length } }), 0);
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
