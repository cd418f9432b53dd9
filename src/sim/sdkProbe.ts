/**
 * Reads SDK internals that no public API exposes (request id counter, correlation maps). Every
 * read tolerates a missing field, since other SDK versions may lack it, and says so instead of
 * throwing.
 * @internal
 */
export interface ProbeReading<T> {
  readonly value: T | undefined;
  /** Why `value` is missing, when it is. */
  readonly missing?: string;
}

type Internals = Record<string, unknown>;

/** The id the endpoint will give its next request (1.x: a counter, `_requestMessageId`). */
export function nextRequestId(endpoint: object): ProbeReading<number> {
  const v = (endpoint as Internals)._requestMessageId;
  return typeof v === 'number' ? { value: v } : { value: undefined, missing: '_requestMessageId not found' };
}

/** Correlation maps of one `Protocol` instance, by field name. */
export const correlationMapFields = [
  '_responseHandlers',
  '_progressHandlers',
  '_timeoutInfo',
  '_requestHandlerAbortControllers',
  '_requestResolvers',
  '_taskProgressTokens',
] as const;

export type CorrelationMapField = (typeof correlationMapFields)[number];

/** Sizes of the correlation maps; a field this SDK version lacks is reported as missing. */
export function correlationMapSizes(endpoint: object): Record<CorrelationMapField, ProbeReading<number>> {
  const out = {} as Record<CorrelationMapField, ProbeReading<number>>;
  for (const field of correlationMapFields) {
    const m = (endpoint as Internals)[field];
    out[field] =
      m instanceof Map ? { value: m.size } : { value: undefined, missing: `${field} is not a Map in this SDK version` };
  }
  return out;
}

/** Keys of one correlation map (for messages naming what leaked). */
export function correlationMapKeys(endpoint: object, field: CorrelationMapField): unknown[] {
  const m = (endpoint as Internals)[field];
  return m instanceof Map ? [...m.keys()] : [];
}
