/**
 * Defensive reads of the SDK's private correlation maps, for leak checks.
 *
 * Why: the maps (`_responseHandlers`, `_progressHandlers`, `_timeoutInfo`,
 * `_requestHandlerAbortControllers`, ...) are private and their names differ between
 * releases. A missing field is reported as "absent in this SDK version", never as a crash
 * and never as "empty": an unreadable map proves nothing about leaks.
 */
import type { Leak } from './suite.ts';

/** Correlation state of the SDK's `Protocol` class (requester and receiver sides). */
export const PROTOCOL_MAPS = [
  '_responseHandlers',
  '_progressHandlers',
  '_timeoutInfo',
  '_requestHandlerAbortControllers',
  '_taskProgressTokens',
  '_requestResolvers',
] as const;

/** Correlation state of `WebStandardStreamableHTTPServerTransport`. */
export const HTTP_TRANSPORT_MAPS = ['_streamMapping', '_requestToStreamMapping', '_requestResponseMap'] as const;

export interface MapProbe {
  where: string;
  /** Field name to size, for the fields that exist and are a Map or Set. */
  sizes: Record<string, number>;
  /** Fields not found (or not a Map/Set) on this object: absent in this SDK version. */
  absent: string[];
}

/** Reads the sizes of `fields` on `target` without assuming any of them exists. */
export function probeMaps(target: unknown, where: string, fields: readonly string[]): MapProbe {
  const probe: MapProbe = { where, sizes: {}, absent: [] };
  const record = (target ?? {}) as Record<string, unknown>;
  for (const field of fields) {
    const value = record[field];
    if (value instanceof Map || value instanceof Set) probe.sizes[field] = value.size;
    else probe.absent.push(field);
  }
  return probe;
}

/** Size of one map, or undefined when the field is absent. */
export function mapSize(target: unknown, field: string): number | undefined {
  const value = ((target ?? {}) as Record<string, unknown>)[field];
  return value instanceof Map || value instanceof Set ? value.size : undefined;
}

/** Collects probes into leaks (non-empty maps) and notes (absent fields, errors), deduplicated. */
export class LeakLedger {
  readonly leaks: Leak[] = [];
  private readonly absentNotes = new Set<string>();
  private readonly errorCounts = new Map<string, number>();

  check(probe: MapProbe, context: string): void {
    for (const [field, size] of Object.entries(probe.sizes)) {
      if (size > 0) this.leaks.push({ where: probe.where, field, size, context });
    }
    for (const field of probe.absent) this.absentNotes.add(`${probe.where}: field ${field} absent in this SDK version (not checked)`);
  }

  /** Records errors an endpoint reported (grouped by message with ids stripped). */
  errors(messages: readonly string[], context: string): void {
    for (const message of messages) {
      const key = `${context.replace(/ N=\d+$/, '')}: ${message.replace(/\d+/g, '#').slice(0, 160)}`;
      this.errorCounts.set(key, (this.errorCounts.get(key) ?? 0) + 1);
    }
  }

  notes(): string[] {
    const errors = [...this.errorCounts].map(([key, count]) => `error reported ${count}x: ${key}`);
    return [...this.absentNotes, ...errors];
  }
}
