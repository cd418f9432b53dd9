/**
 * A correct URL crawler in the style most MCP servers are written: a factory returning an
 * `McpServer`, one tool that fetches pages and reports progress. Each pitfall example in
 * `examples/servers/faulty/` is this server with one mistake.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool(
    'crawl',
    {
      description: 'Fetches each URL and reports its status.',
      inputSchema: { urls: z.array(z.string().url()).min(1).max(4) },
    },
    async ({ urls }, extra) => {
      const token = extra._meta?.progressToken;
      const lines: string[] = [];
      for (const [i, url] of urls.entries()) {
        // The handler's signal goes to every fetch: a cancel stops the real work.
        const response = await fetch(url, { signal: extra.signal });
        lines.push(`${url}: ${response.status}`);
        // A cancel may land while the fetch answered: stop before reporting more progress.
        extra.signal.throwIfAborted();
        if (token !== undefined) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i + 1, total: urls.length } });
        }
      }
      return { content: [{ type: 'text', text: lines.join('\n') }] };
    },
  );
  return server;
}
