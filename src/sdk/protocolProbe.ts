import { correlationMapRoles, transportMapRoles, type SdkFacts } from './facts.ts';
import type { MapProbe, SdkProbe } from './SdkAdapter.ts';

type Internals = Record<string, unknown>;

/** `field` of `owner` as a map reading, or why it cannot be read (a release without it). */
function readMap(owner: unknown, field: string): MapProbe {
  const m = (owner as Internals)[field];
  if (!(m instanceof Map)) return { keys: [], missing: `${field} is not a Map in this SDK version` };
  const values = [...m.values()];
  const primitive = values.every((v) => typeof v === 'string' || typeof v === 'number');
  return { size: m.size, keys: [...m.keys()], ...(primitive && values.length > 0 && { values: values as (string | number)[] }) };
}

/**
 * Reads the private state of a `Protocol` (1.x, and either bundled copy of 2.x, whose fields
 * keep the 1.x names): the request id counter (`_requestMessageId`) and the correlation maps
 * `facts` names; and the request→stream maps of its Streamable HTTP server transport. Fields
 * are read by name on the instance, so the copy the endpoint's class came from does not
 * matter. A field this release lacks is reported as missing.
 */
export function protocolProbe(facts: SdkFacts): SdkProbe {
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
    httpServerTransportMaps(transport) {
      const out: Record<string, MapProbe> = {};
      for (const role of transportMapRoles) {
        const field = facts.httpServerTransportMaps[role];
        out[field] = readMap(transport, field);
      }
      return out;
    },
  };
}
