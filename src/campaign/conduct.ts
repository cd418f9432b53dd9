import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import type { HandlerProgram } from '../sim/scenario.ts';
import type { CaseScript } from '../targets/Target.ts';

export type { CaseScript, ScriptedHandler } from '../targets/Target.ts';

/**
 * Invariants that judge the *handler's* conduct, which generated scripts break on purpose (an
 * `ignore` or `swallow` abort policy) to see how the SDK copes. They are reported, never
 * baselined, and never fail the property suite; `test/model` proves each one fires.
 */
export const scriptedConductIds: ReadonlySet<InvariantId> = new Set<InvariantId>(['cancel.zombie-work', 'cancel.abort-swallowed']);

/** The sum of a program's sleeps: how long it runs at least, in real ms. */
const scriptedMs = (p: HandlerProgram) => p.steps.reduce((ms, s) => ms + (s.kind === 'sleep' ? s.ms : 0), 0);

/**
 * Why the case's own script explains finding `f`, or `undefined` when it does not (then the
 * finding is the SDK's). One notion for every campaign: a finding the script explains is reported
 * apart, never as the SDK's, and never fails a campaign.
 *
 * - A simulated case (no `script`): its scripted handlers are the SDK campaign's stand-in for a
 *   misbehaving peer, so the handler-conduct ids (`scriptedConductIds`) are always the script's.
 * - A test-bed case (`script`): the program of the request the finding names says whether it did
 *   as written: an `ignore` program goes on after its abort (progress or steps after the cancel,
 *   a handler not aborted), one that is not `honour` may outlive a close, a `hang` or a long
 *   sleep keeps its call unanswered, a `hang` that ignores its abort (or was never cancelled)
 *   keeps its POST open, and a handler of an `ignore` program still running at stdin EOF may keep
 *   the process up.
 */
export function scriptExplains(f: Pick<Finding, 'invariant' | 'request'>, script?: CaseScript): string | undefined {
  const id = f.invariant;
  if (!script) return scriptedConductIds.has(id) ? 'a scripted handler\'s own conduct (the SDK campaign\'s stand-in peer)' : undefined;
  if (id === 'lifecycle.stdio-exit') {
    const ignoring = script.openAtClose.filter((h) => h.program.onAbort === 'ignore');
    return ignoring.length > 0 ? `the handler of ${ignoring.map((h) => h.label).join(', ')} was still running at stdin EOF and its program ignores aborts` : undefined;
  }
  const h = f.request === undefined ? undefined : script.handler(f.request);
  if (!h) return undefined;
  const p = h.program;
  switch (id) {
    case 'liveness.call-settles':
      if (p.end.kind === 'hang') return 'its program never ends (`hang`)';
      return scriptedMs(p) >= script.hangAfterMs ? `its program sleeps ${scriptedMs(p)} ms` : undefined;
    case 'progress.after-cancel':
    case 'cancel.zombie-work':
      return p.onAbort === 'ignore' ? 'its program ignores the abort and goes on with its steps' : undefined;
    case 'cancel.handler-aborted':
      return p.onAbort === 'ignore' ? 'its program ignores the abort (the side channel may not tell it before the end)' : undefined;
    case 'lifecycle.close-settles':
      return p.onAbort !== 'honour' ? `its program does not stop on an abort (\`${p.onAbort}\`)` : undefined;
    case 'http.exchange-completes':
      return p.end.kind === 'hang' && (p.onAbort === 'ignore' || !h.cancelled) ? 'its program never ends and does not stop on the abort' : undefined;
    default:
      return undefined;
  }
}
