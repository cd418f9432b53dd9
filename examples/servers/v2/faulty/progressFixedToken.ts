/**
 * Pitfall, on the 2.x packages, as the seed article writes it (1. "progressToken が無いのに送って"):
 * the tool numbers its progress with a token of its own ("task-1") instead of the one the
 * client sent in `_meta.progressToken`, so the client cannot match any of it.
 * Flagged: `progress.token-requested`.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'heavy-tools', version: '2.0.0' });
  server.registerTool('crawl', { inputSchema: z.object({ urls: z.array(z.url()).min(1).max(4) }) }, async ({ urls }, ctx) => {
    const { signal } = ctx.mcpReq;
    const lines: string[] = [];
    for (const [i, url] of urls.entries()) {
      lines.push(`${url}: ${(await fetch(url, { signal })).status}`);
      signal.throwIfAborted();
      // BUG (the article's pitfall 1): a made-up token, sent whether or not the client asked for progress.
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 'task-1', progress: i + 1, total: urls.length } });
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
