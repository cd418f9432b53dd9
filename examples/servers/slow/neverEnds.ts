/**
 * The 30 s tool that never ends: it reports progress for 5 s, then awaits a promise nothing
 * settles (and ignores its signal). Slow is not stuck, but stuck is stuck: the fuzzer learned the
 * tool works for a while and must still find the call that went silent. Expected:
 * `liveness.call-settles`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerWork, report, STEP_MS } from './slowWork.ts';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'slow-never-ends', version: '1.0.0' });
  registerWork(server, async (extra) => {
    for (let i = 1; i <= 5; i++) {
      await sleep(STEP_MS, undefined, { signal: extra.signal });
      await report(extra, i);
    }
    return new Promise<string>(() => {}); // BUG: waits on a callback nobody calls
  });
  return server;
}
