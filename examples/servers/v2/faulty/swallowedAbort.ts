/**
 * Pitfall, on the 2.x packages: a swallowed abort. The handler catches every fetch error, the
 * AbortError of a cancel included, and answers the cancelled request anyway.
 * Flagged: `cancel.abort-swallowed`.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '2.0.0' });
  server.registerTool('crawl', { inputSchema: z.object({ urls: z.array(z.url()).min(1).max(4) }) }, async ({ urls }, ctx) => {
    const lines: string[] = [];
    for (const url of urls) {
      try {
        lines.push(`${url}: ${(await fetch(url, { signal: ctx.mcpReq.signal })).status}`);
      } catch (error) {
        // BUG: the AbortError of a cancel is caught like a network error, and the handler returns a result.
        lines.push(`${url}: failed (${String(error)})`);
      }
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
