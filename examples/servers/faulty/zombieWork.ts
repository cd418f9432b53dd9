/**
 * Pitfall: zombie work. The handler never looks at its signal: after a cancel it goes on fetching the remaining pages and reporting progress.
 * Flagged: `cancel.zombie-work`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    const token = extra._meta?.progressToken;
    const lines: string[] = [];
    for (const [i, url] of urls.entries()) {
      // BUG: neither the fetch nor the loop listens to extra.signal.
      lines.push(`${url}: ${(await fetch(url)).status}`);
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i + 1, total: urls.length } });
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
