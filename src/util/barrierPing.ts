import type { JsonValue } from './json.ts';

/**
 * The id of the `ping` a black-box client sends right after it cancels request `requestId`: its
 * answer is the cancel's barrier. A server reads its input in order, so what it wrote after
 * answering that ping, it wrote after it had read the cancel; what came before the answer may
 * have been on its way already, however late a loaded machine made it. The runner sends it; the
 * model reads its answer as the proof that the cancel was read (`src/model/observedTrace.ts`).
 */
export const barrierPingId = (requestId: JsonValue): string => `mcp-sim-barrier-${typeof requestId === 'number' ? `n${requestId}` : `s${JSON.stringify(requestId)}`}`;

/** Whether `id` is a barrier ping's (mcp-sim's own frames, left out where a transcript shows only the case's). */
export const isBarrierPingId = (id: JsonValue | undefined): boolean => typeof id === 'string' && id.startsWith('mcp-sim-barrier-');
