/**
 * The correct URL crawler of `examples/servers/crawler.ts`, on the 2.x packages: a factory
 * returning an `McpServer` of `@modelcontextprotocol/server`, its input a JSON Schema
 * (`fromJsonSchema`), its progress sent through `ctx.mcpReq.notify`.
 */
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';

const crawlInput = fromJsonSchema<{ urls: string[] }>({
  type: 'object',
  properties: { urls: { type: 'array', items: { type: 'string', format: 'uri' }, minItems: 1, maxItems: 4 } },
  required: ['urls'],
});

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '2.0.0' });
  server.registerTool('crawl', { description: 'Fetches each URL and reports its status.', inputSchema: crawlInput }, async ({ urls }, ctx) => {
    const { signal, _meta } = ctx.mcpReq;
    const token = _meta?.progressToken;
    const lines: string[] = [];
    for (const [i, url] of urls.entries()) {
      // The request's signal goes to every fetch: a cancel stops the real work.
      const response = await fetch(url, { signal });
      lines.push(`${url}: ${response.status}`);
      // A cancel may land while the fetch answered: stop before reporting more progress.
      signal.throwIfAborted();
      if (token !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i + 1, total: urls.length } });
      }
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
