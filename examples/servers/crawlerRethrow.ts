/**
 * The seed article's fix of its NG example (`faulty/catchAllIsError.ts`): errors still come back
 * as a tool result, but a cancel's AbortError is rethrown, so the SDK answers nothing.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
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
  const server = new McpServer({ name: 'heavy-tools', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    try {
      return { content: [{ type: 'text', text: (await doWork(urls, extra.signal)).join('\n') }] };
    } catch (e) {
      if (extra.signal.aborted) throw e; // キャンセルはそのまま伝播 (a cancel propagates as it is)
      return { content: [{ type: 'text', text: `失敗: ${e}` }], isError: true };
    }
  });
  return server;
}
