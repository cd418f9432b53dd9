import type { Endpoint, ToolStarted } from './SdkAdapter.ts';

/**
 * What hosting a user's server does alike on every generation: tell a low-level server by its
 * shape, and shadow a prototype method for the length of an import.
 */

/** A low-level `Server` of either generation, told by its shape: another copy of the SDK has other classes. */
export function isLowLevelServer<H>(value: unknown): value is Endpoint & { _requestHandlers: Map<string, H> } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { _requestHandlers?: unknown; connect?: unknown; setRequestHandler?: unknown };
  return v._requestHandlers instanceof Map && typeof v.connect === 'function' && typeof v.setRequestHandler === 'function';
}

/** The low-level server inside `value`: itself, or what an `McpServer` or a `{ server, cleanup }` holder keeps as `server`. */
export function lowLevelServerOf(value: unknown): Endpoint | undefined {
  if (isLowLevelServer(value)) return value;
  if (typeof value === 'object' && value !== null && 'server' in value) return lowLevelServerOf((value as { server: unknown }).server);
  return undefined;
}

/** Puts `value` in place of `proto[name]` (own or inherited) and returns what puts the original back. */
export function shadowMethod(proto: object, name: string, value: (...args: never[]) => unknown): () => void {
  const own = Object.getOwnPropertyDescriptor(proto, name);
  Object.defineProperty(proto, name, { configurable: true, writable: true, value });
  return () => {
    if (own) Object.defineProperty(proto, name, own);
    else delete (proto as Record<string, unknown>)[name];
  };
}

/** What `McpServer`'s `tools/call` handler calls a tool through, once the input is valid, in the releases that have it (1.x from 1.24, and 2.4.0): `executeToolHandler(tool, args, extraOrCtx)`. */
const TOOL_EXECUTION = 'executeToolHandler';

/** `ServerHosting.toolStartLimit` of a copy whose `McpServer` class is `mcpServer` (absent: no high-level server to mark). */
export function toolStartLimitOf(mcpServer: { prototype: object } | undefined): string | undefined {
  if (!mcpServer || typeof (mcpServer.prototype as Record<string, unknown>)[TOOL_EXECUTION] === 'function') return undefined;
  return `McpServer has no ${TOOL_EXECUTION}: where a tool callback starts and how it settles are not seen, so a cancel that lands while McpServer checks a call's input counts as arriving while the tool ran, and an isError result counts as the tool throwing (a catch-all returning isError after the abort is not flagged)`;
}

/**
 * `ServerHosting.markToolStarts` on an `McpServer` class: shadows its `executeToolHandler`, which
 * its `tools/call` handler awaits once the input is valid, so `started` runs just before the
 * user's callback, and the function it returns hears how the callback itself settled (returned
 * or threw), before the SDK turns a throw into an `isError` result. `undefined` when the class
 * has no such method.
 */
export function markToolStartsOn(mcpServer: { prototype: object } | undefined, started: ToolStarted): (() => void) | undefined {
  const proto = mcpServer?.prototype as Record<string, unknown> | undefined;
  const execute = proto?.[TOOL_EXECUTION];
  if (!proto || typeof execute !== 'function') return undefined;
  return shadowMethod(proto, TOOL_EXECUTION, function toolStarts(this: unknown, ...args: unknown[]) {
    const ended = started();
    const settled = (execute as (...a: unknown[]) => unknown).apply(this, args);
    // `executeToolHandler` is async in every release that has it: its promise is the callback's.
    // Heard before the SDK's own `await` resumes, so the callback's end precedes the handler's.
    if (ended && settled instanceof Promise) settled.then((value) => ended({ threw: false, value }), (error: unknown) => ended({ threw: true, value: error }));
    return settled;
  });
}

