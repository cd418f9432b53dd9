/**
 * A TypeScript MCP server as its author writes it on the first day: two tools on the official
 * SDK's `McpServer.registerTool`, connected to stdio when the file runs.
 *
 * `count` is right: each step waits on a timer the request's `extra.signal` cancels, and progress
 * goes out only when the client sent a progress token, with increasing values. `resize` has the
 * common pitfall: a rounded percentage over more than 100 images repeats a value (progress must
 * increase), and nothing checks the signal, so a cancelled call keeps working.
 *
 * Check it (README, "Check your server"): in process, in virtual time, its tools with generated
 * arguments (mcp-sim takes the server at its `connect` call and never starts the stdio transport).
 *
 *     npx mcp-sim check examples/your-server/typescript/server.ts
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'photos', version: '1.0.0' });

server.registerTool('count', { description: 'Count to n, one step every 20 ms, reporting each step.', inputSchema: { n: z.number().int().min(1).max(8) } }, async ({ n }, extra) => {
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= n; i++) {
    await sleep(20, undefined, { signal: extra.signal }); // a cancel rejects the wait: the work stops
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
  }
  return { content: [{ type: 'text', text: `counted to ${n}` }] };
});

server.registerTool('resize', { description: 'Resize the images, reporting a percentage.', inputSchema: { images: z.number().int().min(101).max(160) } }, async ({ images }, extra) => {
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= images; i++) {
    await sleep(2); // BUG: not given extra.signal, so a cancelled call keeps resizing
    // BUG: the rounded percentage repeats once there are more than 100 images.
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: Math.round((i / images) * 100), total: 100 } });
  }
  return { content: [{ type: 'text', text: `resized ${images} images` }] };
});

await server.connect(new StdioServerTransport());
