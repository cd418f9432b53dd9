/**
 * The seed article's fix, on the 2.x packages (`v2/faulty/catchAllIsError.ts` corrected):
 * errors come back as a tool result, a cancel's AbortError is rethrown.
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
      if (ctx.mcpReq.signal.aborted) throw e; // a cancel propagates as it is
      return { content: [{ type: 'text', text: `失敗: ${e}` }], isError: true };
    }
  });
  return server;
}
