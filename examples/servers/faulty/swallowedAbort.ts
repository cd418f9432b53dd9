/**
 * Pitfall: a swallowed abort. The handler catches every fetch error, the AbortError included, and answers the cancelled request anyway.
 * Flagged: `cancel.abort-swallowed`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    const token = extra._meta?.progressToken;
    const lines: string[] = [];
    for (const [i, url] of urls.entries()) {
      try {
        lines.push(`${url}: ${(await fetch(url, { signal: extra.signal })).status}`);
      } catch (error) {
        // BUG: the AbortError of a cancel is caught like a network error, and the handler returns a result.
        lines.push(`${url}: failed (${String(error)})`);
        continue;
      }
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i + 1, total: urls.length } });
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
