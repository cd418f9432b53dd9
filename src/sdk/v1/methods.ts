import type { SdkMethod, SdkModules } from '../SdkAdapter.ts';

/** Per-method wire details: request schema (to register a handler), result schema, params, result. */
export interface MethodSpec {
  readonly requestSchema: unknown;
  readonly resultSchema: unknown;
  params(handler: string): Record<string, unknown>;
  result(): Record<string, unknown>;
}

/**
 * The methods of a 1.x release, in the order the simulator registers them; a method whose
 * schemas the release lacks (elicitation before 2025-06-18) is left out.
 */
export function v1MethodSpecs(types: SdkModules['types']): ReadonlyMap<SdkMethod, MethodSpec> {
  const specs: [SdkMethod, MethodSpec][] = [
    [
      'tools/call',
      {
        requestSchema: types.CallToolRequestSchema,
        resultSchema: types.CallToolResultSchema,
        params: (handler) => ({ name: handler, arguments: {} }),
        result: () => ({ content: [{ type: 'text', text: 'ok' }] }),
      },
    ],
    [
      'sampling/createMessage',
      {
        requestSchema: types.CreateMessageRequestSchema,
        resultSchema: types.CreateMessageResultSchema,
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
        requestSchema: types.ElicitRequestSchema,
        resultSchema: types.ElicitResultSchema,
        params: (handler) => ({
          mode: 'form',
          message: handler,
          requestedSchema: { type: 'object', properties: {} },
        }),
        result: () => ({ action: 'accept', content: {} }),
      },
    ],
    [
      'roots/list',
      {
        requestSchema: types.ListRootsRequestSchema,
        resultSchema: types.ListRootsResultSchema,
        params: () => ({}),
        result: () => ({ roots: [] }),
      },
    ],
  ];
  return new Map(specs.filter(([, spec]) => spec.requestSchema !== undefined && spec.resultSchema !== undefined));
}
