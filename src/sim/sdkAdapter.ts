import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ListRootsRequestSchema,
  ListRootsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonValue } from './json.ts';
import type { RequestMethod } from './scenario.ts';

/**
 * The one place that knows the SDK's API: which schemas, params and results each method uses,
 * how endpoints are built. Only the low-level `Client`/`Server` handler API is used, because it
 * exists in every 1.x release.
 */
export type Endpoint = Client | Server;

/** Per-method wire details: request schema (to register a handler), result schema, params, result. */
export const methodSpecs = {
  'tools/call': {
    requestSchema: CallToolRequestSchema,
    resultSchema: CallToolResultSchema,
    params: (handler: string) => ({ name: handler, arguments: {} }),
    result: () => ({ content: [{ type: 'text', text: 'ok' }] }),
  },
  'sampling/createMessage': {
    requestSchema: CreateMessageRequestSchema,
    resultSchema: CreateMessageResultSchema,
    params: (handler: string) => ({
      messages: [{ role: 'user', content: { type: 'text', text: handler } }],
      maxTokens: 16,
    }),
    result: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'mcp-sim' }),
  },
  'elicitation/create': {
    requestSchema: ElicitRequestSchema,
    resultSchema: ElicitResultSchema,
    params: (handler: string) => ({
      mode: 'form',
      message: handler,
      requestedSchema: { type: 'object', properties: {} },
    }),
    result: () => ({ action: 'accept', content: {} }),
  },
  'roots/list': {
    requestSchema: ListRootsRequestSchema,
    resultSchema: ListRootsResultSchema,
    params: (_handler: string) => ({}),
    result: () => ({ roots: [] }),
  },
} as const satisfies Record<RequestMethod, unknown>;

/**
 * Scripted handlers use no output or elicitation schemas, and the SDK's default Ajv validator
 * costs about 2 ms per endpoint, more than a whole simulated run: a pass-through one replaces it
 * (SDK versions without the option ignore it).
 */
const passThroughValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input, errorMessage: undefined }),
};

export function createClient(): Client {
  return new Client(
    { name: 'mcp-sim-client', version: '0.0.0' },
    {
      capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
      jsonSchemaValidator: passThroughValidator as never,
    },
  );
}

export function createServer(): Server {
  return new Server(
    { name: 'mcp-sim-server', version: '0.0.0' },
    { capabilities: { tools: {} }, jsonSchemaValidator: passThroughValidator as never },
  );
}

export function requestParams(method: RequestMethod, handler: string, meta?: Record<string, JsonValue>): Record<string, unknown> {
  const params: Record<string, unknown> = { ...methodSpecs[method].params(handler) };
  if (meta) params._meta = { ...meta };
  return params;
}
