import type { Endpoint } from './SdkAdapter.ts';

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
