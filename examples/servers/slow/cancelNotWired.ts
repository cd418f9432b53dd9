/**
 * The 30 s tool with its cancel not wired: the wait between steps ignores `extra.signal`, so a
 * cancelled call keeps working for up to 30 s. Over the wire it is clean: the SDK (1.26.0 on)
 * drops the notifications and the answer of a request whose signal aborted, so its progress never
 * leaves (Python's `slow_cancel_not_wired.py` is found: `progress.after-cancel`).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerWork, report, STEP_MS, STEPS } from './slowWork.ts';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'slow-cancel-not-wired', version: '1.0.0' });
  registerWork(server, async (extra) => {
    for (let i = 1; i <= STEPS; i++) {
      await sleep(STEP_MS); // BUG: no signal: the cancel never reaches the work
      await report(extra, i);
    }
    return `done after ${STEPS} steps`;
  });
  return server;
}
