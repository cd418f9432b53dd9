/**
 * Pitfall, as the seed article writes it ("(b) AbortError を握り潰していた"): every error comes
 * back as a tool result, so the AbortError of a cancel does too. The SDK drops that answer to a
 * cancelled request; an SDK (or a language) that does not answers the cancelled request.
 * Flagged: `cancel.abort-swallowed`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** The work, wired to the signal as the article says: each fetch gets it, each page checks it. */
async function doWork(urls: readonly string[], signal: AbortSignal): Promise<string[]> {
  const lines: string[] = [];
  for (const url of urls) {
    signal.throwIfAborted();
    lines.push(`${url}: ${(await fetch(url, { signal })).status}`);
  }
  return lines;
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'heavy-tools', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    try {
      return { content: [{ type: 'text', text: (await doWork(urls, extra.signal)).join('\n') }] };
    } catch (e) {
      // BUG (the article's NG): the AbortError of a cancel becomes an isError result too.
      return { content: [{ type: 'text', text: `失敗: ${e}` }], isError: true };
    }
  });
  return server;
}
