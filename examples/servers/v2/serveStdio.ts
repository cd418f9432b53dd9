/**
 * A correct 2.x entry module: `serveStdio(factory)` at import, the 2.x way to serve stdio.
 * `mcp-sim fuzz` captures the stdio transport without starting it, opens it as a 2025-11-25
 * client would so that the factory runs, and hosts the server the factory returns.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'echo', version: '2.0.0' });
  // A Standard Schema (zod 4) as the input. A tool that returns at once has no work to stop: it
  // need not look at its signal, even when a cancel came before it started.
  server.registerTool('echo', { inputSchema: z.object({ text: z.string().max(40) }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
});
