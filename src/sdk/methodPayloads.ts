import type { SdkMethod } from './SdkAdapter.ts';

/** What mcp-sim puts on the wire for one method, whatever the release: a request's params and a valid result. */
export interface MethodPayload {
  /** The params of a request naming scenario handler `handler` (where the method has a slot for it). */
  params(handler: string): Record<string, unknown>;
  result(): Record<string, unknown>;
}

/** The payloads of every method mcp-sim sends and serves, in the order the simulator registers them. */
export const methodPayloads: ReadonlyMap<SdkMethod, MethodPayload> = new Map<SdkMethod, MethodPayload>([
  [
    'tools/call',
    {
      params: (handler) => ({ name: handler, arguments: {} }),
      result: () => ({ content: [{ type: 'text', text: 'ok' }] }),
    },
  ],
  [
    'sampling/createMessage',
    {
      params: (handler) => ({
        messages: [{ role: 'user', content: { type: 'text', text: handler } }],
        maxTokens: 16,
      }),
      result: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'mcp-sim' }),
    },
  ],
  [
    'elicitation/create',
    {
      params: (handler) => ({
        mode: 'form',
        message: handler,
        requestedSchema: { type: 'object', properties: {} },
      }),
      result: () => ({ action: 'accept', content: {} }),
    },
  ],
  ['roots/list', { params: () => ({}), result: () => ({ roots: [] }) }],
]);
