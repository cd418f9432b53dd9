/**
 * Pitfall: a total that changes. The handler announces a total, then raises it as it goes, so the client's bar jumps back.
 * Flagged: `progress.total-stable`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    const token = extra._meta?.progressToken;
    const lines: string[] = [];
    for (const [i, url] of urls.entries()) {
      lines.push(`${url}: ${(await fetch(url, { signal: extra.signal })).status}`);
      extra.signal.throwIfAborted();
      // BUG: the total grows with every page ("links found so far").
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i + 1, total: urls.length + i } });
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
