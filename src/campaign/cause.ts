/**
 * The cause of a finding, as the baseline and a campaign tell causes apart: the transport variant
 * it was seen on and the features of the case (its shape). A finding is an old cause when some
 * known minimal case of its invariant on its variant has only features this case has too.
 */
import type { Scenario } from '../sim/index.ts';
import type { SimCase } from './simCase.ts';

/**
 * The features a case uses (an abort, a close, a downstream call, a timeout option, …). Two
 * minimal counterexamples of one invariant with different shapes are different causes: a case
 * that lacks some feature of every known minimal shape cannot be one of them, so it is shrunk
 * as a new entry.
 */
export function shapeOf(c: SimCase): Set<string> {
  const f = new Set<string>();
  for (const a of c.scenario.actions) {
    if (a.kind !== 'call') {
      f.add(a.kind);
      // A new `Client` numbering from 0 again is a cause of its own (ids repeat at the `Server`).
      if (a.kind === 'reconnect' && a.fresh) f.add('fresh-client');
      continue;
    }
    if (a.method !== 'tools/call') f.add('server-request');
    const o = a.options;
    if (o.timeoutMs !== undefined) f.add('timeout');
    if (o.maxTotalTimeoutMs !== undefined) f.add('max-total');
    if (o.resetTimeoutOnProgress) f.add('reset-on-progress');
    if (o.onprogress) f.add('onprogress');
    if (o.signal !== undefined) f.add('signal');
  }
  for (const p of Object.values(c.scenario.handlers)) {
    for (const s of p.steps) f.add(s.kind === 'call' ? 'downstream-call' : s.kind);
    if (p.end.kind !== 'result') f.add(p.end.kind);
    if (p.onAbort !== 'honour') f.add(p.onAbort);
  }
  if (c.tape.some((x) => x !== 0)) f.add('reordered');
  if ((c.scenario.http?.clients ?? 1) > 1) f.add('several-clients');
  return f;
}

export { covers, shapeKey } from '../workload/shape.ts';
/**
 * Where a finding was seen: `memory`, or `http/<stateful|stateless>/<json|sse>`. A bug of one
 * transport mode is its own baseline entry, with its own minimal case.
 */
export function variantOf(scenario: Scenario): string {
  if (scenario.profile !== 'http') return scenario.profile;
  const mode = scenario.http ?? { stateful: true, response: 'sse' };
  return `http/${mode.stateful ? 'stateful' : 'stateless'}/${mode.response}`;
}
