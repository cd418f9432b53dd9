import type { SdkFacts } from '../sdk/facts.ts';
import type { CallerAction, Scenario, Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { finding, type Finding } from './finding.ts';
import { blamesInterleaving, type InvariantId } from './invariants.ts';
import { callerCloseOf } from './callerClose.ts';

/**
 * Blame needs a counterfactual. A finding of an invariant that blames an interleaving
 * (`blamesInterleaving` in the catalogue: "a response and a cancel crossed, and that broke the
 * session") says the race caused a symptom. That is only true when the symptom goes away
 * without the race. This module is the pure half of the check: what the symptom is, whether
 * another run shows it, and what the finding is when it does. `src/check/confirmBlame.ts`
 * makes the counterfactual runs (the natural order; the race removed) and asks it.
 */

/** What a blaming finding says the race caused, as something another run of the scenario can show or not. */
export type Symptom =
  /** The call rejected with the SDK's connection-gone error, on a connection no caller closed. */
  | { readonly kind: 'call-failed'; readonly call: string; readonly sender: Side | undefined }
  /** `side` observed connection `conn` close, with no caller close of it. */
  | { readonly kind: 'side-closed'; readonly side: Side; readonly conn: number };

/** A run of the same scenario without the race: its name in reports, its trace and its own findings. */
export interface Counterfactual {
  /** `natural order` (the same scenario on the empty tape) or `race removed` (`withoutRace`, on the empty tape). */
  readonly name: string;
  readonly trace: readonly TraceEvent[];
  readonly findings: readonly Finding[];
}

/** What a counterfactual says of a blame. */
export type BlameVerdict =
  /** The symptom went away without the race: the blame stands. */
  | { readonly kind: 'confirmed' }
  /** The counterfactual still has the race before the symptom, or never reaches its subject: ask another. */
  | { readonly kind: 'inconclusive' }
  /** The symptom stays without the race: `finding` says what it is instead. */
  | { readonly kind: 'refuted'; readonly finding: Finding };

/** The symptom a blaming finding names, from its subjects; none for a finding that blames nothing or lacks them. */
export function symptomOf(f: Finding): Symptom | undefined {
  if (!blamesInterleaving(f.invariant) || !f.subjects) return undefined;
  const s = f.subjects;
  if (s.call !== undefined) return { kind: 'call-failed', call: s.call, sender: s.sender };
  if (s.side !== undefined && s.conn !== undefined) return { kind: 'side-closed', side: s.side, conn: s.conn };
  return undefined;
}

const sameSymptom = (a: Symptom, b: Symptom): boolean =>
  a.kind === 'call-failed' ? b.kind === 'call-failed' && a.call === b.call : b.kind === 'side-closed' && a.side === b.side && a.conn === b.conn;

const isCallerClose = (e: TraceEvent): boolean => callerCloseOf(e) !== undefined;

/**
 * Whether `trace` shows `symptom` where no caller's close explains it: the call rejected with the
 * connection-gone error although no caller closed its connection before it started; the side
 * closed a connection no caller closed before (or in) that step. `unknown` when the trace never
 * gets to the symptom's subject (the call never starts, the connection never opens): it can tell
 * nothing.
 */
export function showsSymptom(trace: readonly TraceEvent[], symptom: Symptom, facts: SdkFacts): 'shows' | 'absent' | 'unknown' {
  /** Connections a caller's close reached (closed in a step whose action was a caller's close). */
  const closedByCaller = new Set<number>();
  let callerCloseStep = -1;
  let subject = false;
  for (const e of trace) {
    if (isCallerClose(e)) callerCloseStep = e.step;
    if (e.kind === 'close' && e.step === callerCloseStep) closedByCaller.add(e.conn);
    if (symptom.kind === 'side-closed') {
      if (e.kind === 'connect' && e.conn === symptom.conn) subject = true;
      if (e.kind === 'close' && e.side === symptom.side && e.conn === symptom.conn) return closedByCaller.has(e.conn) ? 'absent' : 'shows';
      continue;
    }
    if (e.kind === 'call-start' && e.call === symptom.call) {
      // A caller closed its connection before it started: that close explains a failure.
      if (closedByCaller.has(e.conn)) return 'absent';
      subject = true;
    }
    if (e.kind === 'call-settle' && e.call === symptom.call && subject) {
      return e.outcome === 'rejected' && e.message !== undefined && e.message.search(facts.errorText.connectionGone) !== -1 ? 'shows' : 'absent';
    }
  }
  return subject ? 'absent' : 'unknown';
}

/**
 * Judges blaming finding `f` by one counterfactual run. Confirmed when the symptom is gone;
 * inconclusive when the counterfactual blames the same symptom on a race of its own (the race
 * was not removed); refuted when the symptom stays with no race before it: `f` is replaced by
 * what the symptom is (`whatItIs`).
 */
export function judgeBlame(f: Finding, scenario: Scenario, cf: Counterfactual, facts: SdkFacts): BlameVerdict {
  const symptom = symptomOf(f);
  if (!symptom) return { kind: 'confirmed' };
  const shown = showsSymptom(cf.trace, symptom, facts);
  if (shown === 'unknown') return { kind: 'inconclusive' };
  if (shown === 'absent') return { kind: 'confirmed' };
  const blamedAgain = cf.findings.some((g) => {
    const s = g.invariant === f.invariant ? symptomOf(g) : undefined;
    return s !== undefined && sameSymptom(s, symptom);
  });
  if (blamedAgain) return { kind: 'inconclusive' };
  return { kind: 'refuted', finding: whatItIs(f, symptom, scenario, cf) };
}

/** A stateless Streamable HTTP scenario (a fresh server transport per POST). */
const isStateless = (scenario: Scenario): boolean => scenario.profile === 'http' && scenario.http?.stateful === false;

/**
 * What a refuted blame is: a server-initiated call of a stateless Streamable HTTP server failing
 * for want of a connection is that mode's limitation (`http.stateless-server-request`, a note);
 * anything else that breaks the session without a race is `lifecycle.session-usable`.
 */
export function whatItIs(f: Finding, symptom: Symptom, scenario: Scenario, cf: Counterfactual): Finding {
  const without = `in the ${cf.name} too, without the race ${f.invariant} blamed`;
  let id: InvariantId;
  let message: string;
  if (symptom.kind === 'call-failed') {
    const settle = cf.trace.find((e): e is Extract<TraceEvent, { kind: 'call-settle' }> => e.kind === 'call-settle' && e.call === symptom.call);
    const error = settle?.message ?? 'the connection-gone error';
    const method = callAction(scenario, symptom.call)?.method;
    const what = `call ${symptom.call}${method ? ` (${method})` : ''} fails with "${error}" ${without}`;
    if (isStateless(scenario) && symptom.sender === 'server') {
      id = 'http.stateless-server-request';
      message = `${what}: a stateless Streamable HTTP server has no stream to send a request to the client on outside a POST.`;
    } else {
      id = 'lifecycle.session-usable';
      message = `${what}: the session is unusable with no race at all.`;
    }
  } else {
    id = 'lifecycle.session-usable';
    message = `the ${symptom.side} closes connection ${symptom.conn} ${without}, with no caller closing it: the session breaks with no race at all.`;
  }
  return { ...finding(id, f.at, message, f.request, f.subjects), reclassified: { from: f.invariant, counterfactual: cf.name } };
}

function callAction(scenario: Scenario, label: string): Extract<CallerAction, { kind: 'call' }> | undefined {
  return scenario.actions.find((a): a is Extract<CallerAction, { kind: 'call' }> => a.kind === 'call' && a.call === label);
}

/**
 * `scenario` with the races of `raced` removed: those caller calls lose what cancels them (their
 * signal, their timeouts), so their responses cannot cross a cancel; aborts of a signal no
 * earlier call uses any more go too. Undefined when none of `raced` is a caller's call (a
 * handler's downstream call, say): there is nothing this can remove.
 */
export function withoutRace(scenario: Scenario, raced: readonly string[]): Scenario | undefined {
  const targets = new Set(raced.filter((label) => callAction(scenario, label) !== undefined));
  if (targets.size === 0) return undefined;
  const signals = new Set<string>();
  const actions: CallerAction[] = [];
  for (const a of scenario.actions) {
    if (a.kind === 'call' && targets.has(a.call)) {
      const { signal: _s, timeoutMs: _t, maxTotalTimeoutMs: _m, resetTimeoutOnProgress: _r, ...options } = a.options;
      actions.push({ ...a, options });
      continue;
    }
    if (a.kind === 'call' && a.options.signal !== undefined) signals.add(a.options.signal);
    if (a.kind === 'abort' && !signals.has(a.signal)) continue;
    actions.push(a);
  }
  return { ...scenario, actions };
}

/** The calls whose races the blaming findings of `findings` name, in order, once each. */
export function racedCalls(findings: readonly Finding[]): string[] {
  return [...new Set(findings.filter((f) => blamesInterleaving(f.invariant)).flatMap((f) => f.subjects?.raced ?? []))];
}
