import { runChecked, type CheckedRun } from '../../check/index.ts';
import { show } from '../../model/ids.ts';
import { handlerOf, wireOf, type CallRec } from '../../model/records.ts';
import { TraceWalker } from '../../model/walker.ts';
import type { SdkAdapter } from '../../sdk/SdkAdapter.ts';
import { endState } from '../../sim/endState.ts';
import type { RunOptions, Scenario, StepObservation, TraceEvent } from '../../sim/index.ts';
import type { ViewerEvent, ViewerRequest, ViewerRun, ViewerStep } from './viewerTypes.ts';

/** A walker that also lists every requester (the base class lists calls and receivers). */
class StateWalker extends TraceWalker {
  /**
   * `wire`: a real-time, black-box trace. The caller is mcp-sim's own client, so its calls are
   * known; a call is matched to its request by side, connection and id (the trace of a real run
   * does not link them itself), so each shows once. A receiver's handler is inside the server's
   * process, not on the wire: its `other` is left out.
   */
  requestStates(wire = false): ViewerRequest[] {
    const out: ViewerRequest[] = [];
    const caller = (c: CallRec | undefined) => (c?.settled ? `settled: ${c.settled.why}` : c ? 'waiting' : '—');
    if (wire) {
      const calls = [...this.calls()];
      const matched = new Set<CallRec>();
      for (const r of this.requesters.values()) {
        const call = r.call ?? calls.find((c) => !matched.has(c) && c.from === r.from && c.conn === r.conn && c.id !== undefined && show(c.id) === show(r.id));
        if (call) matched.add(call);
        out.push({ key: call?.call ?? `${r.from}:${r.conn}:${show(r.id)}`, side: r.from, role: 'requester', method: r.method, id: show(r.id), wire: wireOf(r), other: caller(call) });
      }
      for (const c of calls) if (!matched.has(c)) out.push({ key: c.call, side: c.from, role: 'requester', method: '', id: c.id === undefined ? '?' : show(c.id), wire: 'unsent', other: caller(c) });
      for (const r of this.receivers()) out.push({ key: this.receivedLabel(r), side: r.side, role: 'receiver', method: r.method, id: show(r.id), wire: wireOf(r) });
      return out;
    }
    for (const r of this.requesters.values()) {
      const wire = wireOf(r);
      const caller = r.call?.settled ? `settled: ${r.call.settled.why}` : r.call ? 'waiting' : '—';
      out.push({ key: r.call?.call ?? `${r.from}:${r.conn}:${show(r.id)}`, side: r.from, role: 'requester', method: r.method, id: show(r.id), wire, other: caller });
    }
    for (const c of this.calls()) {
      if (!c.req) out.push({ key: c.call, side: c.from, role: 'requester', method: '', id: c.id === undefined ? '?' : show(c.id), wire: 'unsent', other: c.settled ? `settled: ${c.settled.why}` : 'waiting' });
    }
    for (const r of this.receivers()) {
      out.push({ key: this.receivedLabel(r), side: r.side, role: 'receiver', method: r.method, id: show(r.id), wire: wireOf(r), other: `handler ${handlerOf(r)}` });
    }
    return out;
  }
}

/** The world as the viewer shows it after a step: the SDK's maps (keys only) and pending timers. */
type WorldView = Pick<ViewerStep, 'maps' | 'timers'> & { readonly enabled: readonly string[]; readonly choice: number };

function worldView(o: StepObservation): WorldView {
  const end = endState(o.world);
  const maps: Record<string, Record<string, string[]>> = {};
  for (const [side, endpoint] of Object.entries(end.maps)) {
    maps[side] = Object.fromEntries(Object.entries(endpoint).map(([name, m]) => [name, m.missing ? [`(${m.missing})`] : m.keys.map((k) => JSON.stringify(k))]));
  }
  return { enabled: o.enabled, choice: o.choice, maps, timers: end.timers.map((t) => ({ id: t.id, label: t.label, atMs: t.atMs })) };
}

/**
 * Builds the steps of a trace: what the model says of every request after each step, and what the
 * observer saw of the world. `wire`: a real-time trace (see `StateWalker.requestStates`).
 */
export function stepsOf(trace: readonly TraceEvent[], facts: CheckedRun['result']['sdk']['facts'] | undefined, worlds: ReadonlyMap<number, WorldView>, wire = false): ViewerStep[] {
  const walker = new StateWalker(facts ? { facts } : {});
  const steps: ViewerStep[] = [];
  let k = 0;
  const last = trace.at(-1)?.step ?? 0;
  let before = { requests: '', maps: '', timers: '' };
  for (let step = 0; step <= last; step++) {
    let t = steps.at(-1)?.t ?? 0;
    let action: string | undefined;
    let choice = -1;
    for (; k < trace.length && trace[k]!.step === step; k++) {
      const e = trace[k]!;
      walker.feed(e);
      t = e.t;
      if (e.kind === 'action') {
        action = e.action;
        choice = e.choice;
      }
    }
    const w = worlds.get(step);
    const requests = walker.requestStates(wire);
    const now = { requests: JSON.stringify(requests), maps: JSON.stringify(w?.maps), timers: JSON.stringify(w?.timers) };
    steps.push({
      step,
      t,
      ...(action !== undefined && { action }),
      choice,
      ...(w && { enabled: w.enabled }),
      ...(now.requests !== before.requests && { requests }),
      ...(w && now.maps !== before.maps && { maps: w.maps }),
      ...(w && now.timers !== before.timers && { timers: w.timers }),
    });
    before = now;
  }
  return steps;
}

/** What to run: a scenario under a tape and seed on one SDK, or any other checked run the observer can watch (a fuzz target). */
export type RunCase = (observe: NonNullable<RunOptions['observe']>) => Promise<CheckedRun>;

/** A simulated case run on `sdk`. */
export const simulated =
  (c: { readonly scenario: Scenario; readonly tape: readonly number[]; readonly seed: number }, sdk: SdkAdapter): RunCase =>
  (observe) =>
    runChecked(c.scenario, { tape: c.tape, seed: c.seed, sdk, observe });

/**
 * A real-time trace as the page steps through it: its events in the order of their real times
 * (a frame is recorded when its reader gets to it, which may be after a later one was), each
 * event a step of its own (step 0: before the first), so the time a step shows is its event's,
 * as the lanes show it. Real time has no scheduler: nothing groups events into steps.
 */
export function chronological(trace: readonly TraceEvent[]): TraceEvent[] {
  return trace
    .map((e, k) => ({ e, k }))
    .sort((a, b) => a.e.t - b.e.t || a.k - b.k)
    .map(({ e }, k) => ({ ...e, step: k + 1 }));
}

/**
 * Runs one case with an observer and returns it as the viewer draws it. The run is the same as
 * without the observer (it only reads): its trace hash is the one `replay` prints.
 */
export async function recordRun(label: string, note: string, c: { readonly tape: readonly number[]; readonly seed: number }, run: RunCase): Promise<ViewerRun & { readonly checked: CheckedRun }> {
  const worlds = new Map<number, WorldView>();
  const checked = await run((o) => worlds.set(o.step, worldView(o)));
  const { result, findings } = checked;
  return {
    label,
    note,
    tape: c.tape,
    seed: c.seed,
    traceHash: result.hash,
    events: result.trace as unknown as ViewerEvent[],
    steps: stepsOf(result.trace, result.sdk.facts, worlds),
    findings: findings.map((f) => ({ invariant: f.invariant, level: f.level, message: f.message })),
    checked,
  };
}
