/**
 * Pitfall, on the 2.x packages: cancellation that never reaches the real work. The handler
 * checks `ctx.mcpReq.signal` between pages but does not pass it to fetch, so a cancel leaves
 * the request running. Flagged: `cancel.reaches-work`.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '2.0.0' });
  server.registerTool('crawl', { inputSchema: z.object({ urls: z.array(z.url()).min(1).max(4) }) }, async ({ urls }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    const lines: string[] = [];
    for (const [i, url] of urls.entries()) {
      // BUG: no { signal: ctx.mcpReq.signal }: the fetch runs on after the client cancelled.
      lines.push(`${url}: ${(await fetch(url)).status}`);
      ctx.mcpReq.signal.throwIfAborted();
      if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i + 1, total: urls.length } });
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
