import { methodPayloads, type MethodPayload } from '../methodPayloads.ts';
import type { SdkMethod, SdkModules } from '../SdkAdapter.ts';

/** Per-method wire details: request schema (to register a handler), result schema, params, result. */
export interface MethodSpec extends MethodPayload {
  readonly requestSchema: unknown;
  readonly resultSchema: unknown;
}

/**
 * The methods of a 1.x release, in the order the simulator registers them; a method whose
 * schemas the release lacks (elicitation before 2025-06-18) is left out.
 */
export function v1MethodSpecs(types: SdkModules['types']): ReadonlyMap<SdkMethod, MethodSpec> {
  const schemas: Record<SdkMethod, readonly [unknown, unknown]> = {
    'tools/call': [types.CallToolRequestSchema, types.CallToolResultSchema],
    'sampling/createMessage': [types.CreateMessageRequestSchema, types.CreateMessageResultSchema],
    'elicitation/create': [types.ElicitRequestSchema, types.ElicitResultSchema],
    'roots/list': [types.ListRootsRequestSchema, types.ListRootsResultSchema],
  };
  const specs: [SdkMethod, MethodSpec][] = [...methodPayloads].map(([method, payload]) => {
    const [requestSchema, resultSchema] = schemas[method];
    return [method, { ...payload, requestSchema, resultSchema }];
  });
  return new Map(specs.filter(([, spec]) => spec.requestSchema !== undefined && spec.resultSchema !== undefined));
}
