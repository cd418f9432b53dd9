/**
 * What the slow TypeScript example servers share: the tool `work` takes 30 s, one step a second,
 * reporting progress with the client's token after each step (and nothing without one).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** How long one call of `work` takes, in seconds, one progress each. */
export const STEPS = 30;
/** Milliseconds between two progress notifications. */
export const STEP_MS = 1_000;

/** What a tool handler of the 1.x SDK is given besides its arguments (the parts these examples use). */
export interface Extra {
  readonly signal: AbortSignal;
  readonly _meta?: { readonly progressToken?: string | number };
  sendNotification(n: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total: number; message: string } }): Promise<void>;
}

/** Progress `i` of `STEPS` with the client's token, when the request carried one. */
export async function report(extra: Extra, i: number): Promise<void> {
  const token = extra._meta?.progressToken;
  if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: STEPS, message: `second ${i} of ${STEPS}` } });
}

/** Registers `work` on `server` with `handler` (no arguments). */
export function registerWork(server: McpServer, handler: (extra: Extra) => Promise<string>): void {
  server.registerTool('work', { description: 'work for 30 s, reporting progress every second' }, async (extra) => ({ content: [{ type: 'text', text: await handler(extra as unknown as Extra) }] }));
}
