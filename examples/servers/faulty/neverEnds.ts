/**
 * Pitfall: work that never ends. The handler polls each page until it is "ready", ignoring its signal; the virtual network never says ready, so nothing stops it.
 * Flagged: `liveness.quiescent`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { urls: z.array(z.string().url()).min(1).max(4) } }, async ({ urls }, extra) => {
    const token = extra._meta?.progressToken;
    const lines: string[] = [];
    for (const url of urls) {
      // BUG: an unbounded poll that ignores extra.signal (and a timeout, and the close).
      for (let ready = false; !ready; ) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        ready = (await (await fetch(url)).text()).includes('"ready":true');
      }
      lines.push(`${url}: ready`);
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
  return server;
}
