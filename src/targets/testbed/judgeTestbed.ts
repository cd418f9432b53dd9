import { finding, type Finding } from '../../model/finding.ts';
import { idKey, show } from '../../model/ids.ts';
import type { InvariantId } from '../../model/invariants.ts';
import { judgeWire, type PolicyNote, type WireJudgeOptions, type WireVerdict } from '../../model/wireJudge.ts';
import type { HandlerProgram } from '../../sim/scenario.ts';
import type { TraceEvent, WireId } from '../../sim/trace.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import type { Plan } from '../../real/plan.ts';
import { withHandlerEvents } from './handlerEvents.ts';
import { programOf } from './testbedCases.ts';

/** What the server side of one call did, from the side channel, and what the client did to it. */
interface CallSide {
  readonly label: string;
  readonly program: HandlerProgram;
  readonly id: WireId;
  readonly token: JsonValue | undefined;
  /** When the client wrote `notifications/cancelled` for it (a timeout's too). */
  cancelledAt?: number;
  answeredAt?: number;
  started?: number;
  abortedAt?: number;
  ended?: { readonly t: number; readonly outcome: string; readonly i: number };
  /** Progress steps the handler began before its abort or end. */
  progressSteps: number;
  progressRead: number;
  /** The first step begun after the abort was observed, and the first after the close. */
  stepAfterAbort?: { readonly i: number; readonly t: number; readonly index: number; readonly op: string };
  steps: { readonly i: number; readonly t: number; readonly index: number; readonly op: string }[];
}

/** The sum of a program's sleeps: how long it runs at least, in real ms. */
const scriptedMs = (p: HandlerProgram) => p.steps.reduce((ms, s) => ms + (s.kind === 'sleep' ? s.ms : 0), 0);

/** A finding the program's own script explains (its `ignore`, `hang` or length): reported apart, never blamed on the SDK. */
function programsOwn(f: Finding, side: CallSide | undefined, options: WireJudgeOptions, openAtEof: readonly CallSide[]): string | undefined {
  const p = side?.program;
  const id: InvariantId = f.invariant;
  if (id === 'lifecycle.stdio-exit') {
    // Only a program that ignores its abort may rightly keep the process past EOF: one that listens stops when the SDK tells it.
    const ignoring = openAtEof.filter((c) => c.program.onAbort === 'ignore');
    return ignoring.length > 0 ? `the handler of ${ignoring.map((c) => c.label).join(', ')} was still running at stdin EOF and its program ignores aborts` : undefined;
  }
  if (!p) return undefined;
  if (id === 'liveness.call-settles' && (p.end.kind === 'hang' || scriptedMs(p) >= options.hangAfterMs)) return p.end.kind === 'hang' ? 'its program never ends (`hang`)' : `its program sleeps ${scriptedMs(p)} ms`;
  if (id === 'progress.after-cancel' && p.onAbort === 'ignore') return 'its program ignores the abort and goes on with its progress steps';
  if (id === 'http.exchange-completes' && p.end.kind === 'hang' && (p.onAbort === 'ignore' || side?.cancelledAt === undefined)) return 'its program never ends and does not stop on the abort';
  return undefined;
}

/**
 * The oracle of a test-bed run: the wire judge on the frames, and the server's side from the side
 * channel (`withHandlerEvents`). The program is mcp-sim's own script, so what it does as written
 * (`ignore`, `swallow`, `hang`) is never the SDK's finding; what the SDK does around it is:
 *
 * - `cancel.handler-aborted`: a cancelled call's handler, whose program listens (`honour`,
 *   `swallow`), ran on past the in-flight bound (or to the end of the run) and was never told;
 * - `cancel.zombie-work`: a handler whose program honours kept beginning steps after it observed
 *   the abort;
 * - `progress.reaches-requester`: a call answered without being given up lost progress its
 *   handler sent (a progress step begun, no notification read; not in a JSON response mode, which
 *   has no stream for progress);
 * - `lifecycle.close-settles`: after the client closed, a handler whose program honours began
 *   steps past the in-flight bound (the SDK did not abort it on close).
 *
 * Wire findings the program explains become policy notes (`the program's own: ...`).
 */
export function judgeTestbed(raw: readonly TraceEvent[], plan: Plan, options: WireJudgeOptions): { trace: TraceEvent[]; verdict: WireVerdict } {
  const programs = new Map<string, HandlerProgram>();
  for (const c of plan.calls) {
    const p = programOf(c);
    if (p) programs.set(c.label, p);
  }
  // A shared id cannot name one handler: those calls are judged from the wire only.
  const shared = new Set(plan.calls.flatMap((c) => (c.sameIdAs ? [c.label, c.sameIdAs] : [])));
  const labelOfId = new Map<string, string>();
  for (const e of raw) if (e.kind === 'call-start' && e.id !== undefined && !labelOfId.has(idKey(e.id))) labelOfId.set(idKey(e.id), e.call);
  const trace = withHandlerEvents(raw, (id) => {
    const label = labelOfId.get(idKey(id));
    return label === undefined ? undefined : programs.get(label);
  });
  const wire = judgeWire(trace, options);

  const sides = new Map<string, CallSide>();
  const byId = new Map<string, CallSide>();
  const byToken = new Map<string, CallSide>();
  let closedAt: number | undefined;
  let closeI = 0;
  for (const e of trace) {
    if (e.kind === 'call-start' && e.id !== undefined && !shared.has(e.call)) {
      const program = programs.get(e.call);
      const call = plan.calls.find((c) => c.label === e.call);
      if (!program || !call) continue;
      const side: CallSide = { label: e.call, program, id: e.id, token: call.progressToken, progressSteps: 0, progressRead: 0, steps: [] };
      sides.set(e.call, side);
      byId.set(idKey(e.id), side);
      if (call.progressToken !== undefined) byToken.set(idKey(call.progressToken), side);
    } else if (e.kind === 'send' && e.from === 'client' && isJsonObject(e.frame) && e.frame.method === 'notifications/cancelled' && isJsonObject(e.frame.params)) {
      const side = byId.get(idKey(e.frame.params.requestId));
      if (side) side.cancelledAt ??= e.t;
    } else if (e.kind === 'deliver' && e.to === 'client' && isJsonObject(e.frame)) {
      const f = e.frame;
      if (f.method === 'notifications/progress' && isJsonObject(f.params)) {
        const side = byToken.get(idKey(f.params.progressToken));
        if (side) side.progressRead++;
      } else if (('result' in f || 'error' in f) && f.id !== undefined) {
        const side = byId.get(idKey(f.id));
        if (side) side.answeredAt ??= e.t;
      }
    } else if ((e.kind === 'action' && e.action === 'close the connection') || (e.kind === 'eof' && e.to === 'server') || (e.kind === 'http-request' && e.at === 'client' && e.method === 'DELETE')) {
      if (closedAt === undefined) {
        closedAt = e.t;
        closeI = e.i;
      }
    } else if (e.kind === 'handler-start') {
      const side = byId.get(idKey(e.id));
      if (side) side.started ??= e.t;
    } else if (e.kind === 'handler-abort') {
      const side = byId.get(idKey(e.id));
      if (side) side.abortedAt ??= e.t;
    } else if (e.kind === 'handler-step') {
      const side = byId.get(idKey(e.id));
      if (!side) continue;
      const step = { i: e.i, t: e.t, index: e.index, op: e.op.kind };
      side.steps.push(step);
      if (side.abortedAt !== undefined) side.stepAfterAbort ??= step;
      else if (e.op.kind === 'progress' && side.token !== undefined) side.progressSteps++;
    } else if (e.kind === 'handler-end') {
      const side = byId.get(idKey(e.id));
      if (side && !side.ended) side.ended = { t: e.t, outcome: e.outcome, i: e.i };
    }
  }

  const endT = trace.at(-1)?.t ?? 0;
  const endI = trace.at(-1)?.i ?? 0;
  // A Streamable HTTP JSON response mode answers a POST with one JSON body: a progress notification has no way there.
  const jsonResponses = trace.some((e) => e.kind === 'http-response' && e.at === 'client' && e.status === 200 && e.contentType?.includes('application/json') === true);
  const findings: Finding[] = [];
  const at = (side: CallSide) => ({ sender: 'client' as const, ids: [idKey(side.id)], call: side.label });
  const what = (side: CallSide) => `call ${side.label} (program ${side.program.steps.map((s) => s.kind).join(', ') || 'no steps'}, then ${side.program.end.kind}, abort ${side.program.onAbort})`;
  for (const side of sides.values()) {
    const { program: p } = side;
    const observed = side.abortedAt !== undefined || side.ended?.outcome === 'aborted' || side.ended?.outcome === 'swallowed';
    // cancel.handler-aborted: the SDK never told a running handler that listens.
    if (side.cancelledAt !== undefined && side.started !== undefined && p.onAbort !== 'ignore' && !observed) {
      const tc = side.cancelledAt;
      const runningAtCancel = side.ended === undefined || side.ended.t > tc;
      const ranOn = side.ended ? side.ended.t - tc > options.inFlightMs : endT - tc > options.inFlightMs;
      if (runningAtCancel && ranOn) {
        findings.push(
          finding('cancel.handler-aborted', side.ended?.i ?? endI, `${what(side)} was cancelled, but its handler was never told: no abort observed, and it ${side.ended ? `ended (${side.ended.outcome}) ${Math.round(side.ended.t - tc)} ms after the cancel` : `was still running ${Math.round(endT - tc)} ms after the cancel, at the end of the run`} (in-flight bound ${options.inFlightMs} ms): the SDK does not deliver the cancellation to the handler`, side.label, at(side)),
        );
      }
    }
    // cancel.zombie-work: steps after the abort of a program that honours it.
    if (p.onAbort === 'honour' && side.stepAfterAbort) {
      const s = side.stepAfterAbort;
      findings.push(finding('cancel.zombie-work', s.i, `${what(side)}: its handler observed the abort and still began step #${s.index} (${s.op}) ${Math.round(s.t - side.abortedAt!)} ms later, though its program stops at once: the SDK's cancellation did not stop the work`, side.label, at(side)));
    }
    // progress.reaches-requester: progress lost on a call nobody gave up (a JSON response mode has no stream for it: not judged there).
    if (!jsonResponses && side.token !== undefined && side.cancelledAt === undefined && side.answeredAt !== undefined && (closedAt === undefined || side.answeredAt <= closedAt) && side.ended && side.progressRead < side.progressSteps) {
      findings.push(finding('progress.reaches-requester', side.ended.i, `${what(side)} with progress token ${show(side.token)}: its handler began ${side.progressSteps} progress step(s), the client read ${side.progressRead} progress notification(s) before the run ended: the SDK lost progress of a request it answered`, side.label, at(side)));
    }
    // lifecycle.close-settles: a handler that honours aborts ran steps long after the close.
    if (closedAt !== undefined && p.onAbort === 'honour') {
      const late = side.steps.find((s) => s.t - closedAt! > options.inFlightMs);
      if (late && !(side.ended && side.ended.t <= closedAt)) {
        findings.push(finding('lifecycle.close-settles', late.i, `${what(side)}: the client closed the connection, and ${Math.round(late.t - closedAt)} ms later its handler still began step #${late.index} (${late.op}), though its program stops on an abort: the SDK did not abort the handler on close (the close at trace #${closeI})`, side.label, at(side)));
      }
    }
  }

  const openAtEof = closedAt === undefined ? [] : [...sides.values()].filter((s) => s.started !== undefined && (s.ended === undefined || s.ended.t > closedAt!));
  const kept: Finding[] = [];
  const policy: PolicyNote[] = [...wire.policy];
  for (const f of wire.findings) {
    const side = f.request === undefined ? undefined : sides.get(f.request);
    const own = programsOwn(f, side, options, openAtEof);
    if (own === undefined) kept.push(f);
    else policy.push({ at: f.at, call: f.request ?? '-', message: `the program's own, not the SDK's: ${f.invariant} (${own}): ${f.message}` });
  }
  return { trace, verdict: { findings: [...kept, ...findings], policy, undecided: wire.undecided } };
}
