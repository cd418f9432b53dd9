/**
 * Pitfall, on the 2.x packages, as the seed article writes it: every error comes back as a tool
 * result, so the AbortError of a cancel does too.
 * Flagged: `cancel.abort-swallowed`.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** The work, wired to the signal: each fetch gets it, each page checks it. */
async function doWork(urls: readonly string[], signal: AbortSignal): Promise<string[]> {
  const lines: string[] = [];
  for (const url of urls) {
    signal.throwIfAborted();
    lines.push(`${url}: ${(await fetch(url, { signal })).status}`);
  }
  return lines;
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'heavy-tools', version: '2.0.0' });
  server.registerTool('crawl', { inputSchema: z.object({ urls: z.array(z.url()).min(1).max(4) }) }, async ({ urls }, ctx) => {
    try {
      return { content: [{ type: 'text', text: (await doWork(urls, ctx.mcpReq.signal)).join('\n') }] };
    } catch (e) {
      // BUG (the article's NG): the AbortError of a cancel becomes an isError result too.
      return { content: [{ type: 'text', text: `失敗: ${e}` }], isError: true };
    }
  });
  return server;
}
