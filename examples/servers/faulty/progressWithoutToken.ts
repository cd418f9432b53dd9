/**
 * Pitfall: progress sent without the client's token. The handler makes up a token when the request carried none, so a client that never asked for progress gets notifications it cannot match.
 * Flagged: `progress.token-requested`.
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
      // BUG: falls back to a made-up token instead of sending no progress at all.
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token ?? 'crawl', progress: i + 1, total: urls.length } });
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
