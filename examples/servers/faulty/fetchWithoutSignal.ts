/**
 * Pitfall: cancellation that never reaches the real work. The handler checks its signal between pages but does not pass it to fetch, so a cancel leaves the request running.
 * Flagged: `cancel.reaches-work`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    const token = extra._meta?.progressToken;
    const lines: string[] = [];
    for (const [i, url] of urls.entries()) {
      // BUG: no { signal: extra.signal }: the fetch runs on after the client cancelled.
      lines.push(`${url}: ${(await fetch(url)).status}`);
      extra.signal.throwIfAborted();
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i + 1, total: urls.length } });
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
