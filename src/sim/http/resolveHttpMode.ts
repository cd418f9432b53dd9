import type { HttpMode } from '../scenario.ts';

/** The server modes a scenario on the http profile gets when it names none. */
export const DEFAULT_HTTP_MODE: ResolvedHttpMode = Object.freeze({
  stateful: true,
  response: 'sse',
  eventStore: false,
  keepAliveMs: 0,
  clients: 1,
});

/** `HttpMode` with every default filled in. */
export type ResolvedHttpMode = Required<HttpMode>;

export function resolveHttpMode(mode: HttpMode | undefined): ResolvedHttpMode {
  return { ...DEFAULT_HTTP_MODE, ...mode, keepAliveMs: mode?.keepAliveMs ?? DEFAULT_HTTP_MODE.keepAliveMs, clients: mode?.clients ?? 1 };
}
