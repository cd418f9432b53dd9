/**
 * A correct tool that takes 30 s: progress every second with the client's token, and it stops at
 * once on a cancel (the wait between steps listens to `extra.signal`). Slow is not stuck: a fuzzer
 * must wait for it, and cancel it while it works, without calling it hung. Expected: clean.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerWork, report, STEP_MS, STEPS } from './slowWork.ts';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'slow-correct', version: '1.0.0' });
  registerWork(server, async (extra) => {
    for (let i = 1; i <= STEPS; i++) {
      await sleep(STEP_MS, undefined, { signal: extra.signal }); // rejects at once on the cancel
      await report(extra, i);
    }
    return `done after ${STEPS} steps`;
  });
  return server;
}
