/**
 * Pitfall: progress values that do not increase. The handler reports the same value before and after each page.
 * Flagged: `progress.increasing`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    const token = extra._meta?.progressToken;
    const lines: string[] = [];
    for (const [i, url] of urls.entries()) {
      // BUG: "starting page i" and "finished page i" both report progress i.
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i } });
      lines.push(`${url}: ${(await fetch(url, { signal: extra.signal })).status}`);
      extra.signal.throwIfAborted();
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i } });
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
