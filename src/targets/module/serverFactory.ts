/**
 * The context hosting platforms pass a server factory (`createServer({ config, env })`);
 * mcp-sim passes `{ config }` from `--config` (an empty object by default) and an empty `env`.
 * A 2.x factory (`McpServerFactory`) also gets the era it serves: `legacy`, the 2025-11-25
 * protocol mcp-sim speaks to it.
 */
export interface FactoryContext {
  readonly era?: 'legacy';
  readonly config: Readonly<Record<string, unknown>>;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * A server factory as real servers write one: sync or async, taking the context or nothing,
 * returning a high-level `McpServer`, a low-level `Server`, or an object holding one
 * (`{ server, cleanup }`).
 */
export type ServerFactory = (context: FactoryContext) => unknown;

/** A factory's value, described for an error message without printing the whole object. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value === 'function' ? 'a function' : `${typeof value} ${JSON.stringify(value)}`;
  const name = (value as object).constructor?.name;
  const keys = Object.keys(value).slice(0, 6);
  return `${name && name !== 'Object' ? `a ${name}` : 'an object'}${keys.length ? ` with keys ${keys.join(', ')}` : ''}`;
}
