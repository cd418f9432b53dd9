import { correlationMapRoles, type SdkFacts } from '../facts.ts';
import type { MapProbe, SdkProbe } from '../SdkAdapter.ts';

type Internals = Record<string, unknown>;

/**
 * Reads the private state of a 1.x `Protocol`: the request id counter (`_requestMessageId`)
 * and the correlation maps `facts` names. A field this release lacks is reported as missing.
 */
export function v1Probe(facts: SdkFacts): SdkProbe {
  return {
    nextRequestId(endpoint) {
      const v = (endpoint as unknown as Internals)._requestMessageId;
      return typeof v === 'number' ? { value: v } : { value: undefined, missing: '_requestMessageId not found' };
    },
    correlationMaps(endpoint) {
      const out: Record<string, MapProbe> = {};
      for (const role of correlationMapRoles) {
        const field = facts.correlationMaps[role];
        const m = (endpoint as unknown as Internals)[field];
        out[field] = m instanceof Map ? { size: m.size, keys: [...m.keys()] } : { keys: [], missing: `${field} is not a Map in this SDK version` };
      }
      return out;
    },
  };
}
