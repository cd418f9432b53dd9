/**
 * Runs a TypeScript example server as a stdio process, so mcp-sim can judge the same example in
 * process (`fuzz <module>`) and as a process (`fuzz --stdio`):
 *
 *   node --import tsx examples/servers/hostStdio.ts examples/servers/faulty/totalChanges.ts
 *
 * The module exports `createServer()` (or a server as its default export); this host connects it
 * to stdin/stdout. The examples fetch the URLs they are called with: here every `fetch` is
 * answered on the spot (200 after 10 ms, rejected when its signal aborts), as the in-process run's
 * virtual network answers them, so nothing leaves the machine and both runs see the same tool.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const FETCH_MS = 10;

globalThis.fetch = ((_url: unknown, init?: { signal?: AbortSignal }) =>
  new Promise<Response>((done, fail) => {
    const signal = init?.signal;
    if (signal?.aborted) return fail(signal.reason);
    const timer = setTimeout(() => done(new Response('ok', { status: 200 })), FETCH_MS);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      fail(signal.reason);
    });
  })) as typeof fetch;

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node --import tsx examples/servers/hostStdio.ts <module exporting createServer>\n');
  process.exit(2);
}
const mod = (await import(pathToFileURL(resolve(file)).href)) as { createServer?: () => unknown; default?: unknown };
const server = (mod.createServer ? mod.createServer() : mod.default) as { connect(t: unknown): Promise<void> };
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
