import type { CallOptions, CallerAction, HandlerProgram, Scenario } from '../sim/index.ts';
import type { SimCase } from './simCase.ts';

/** Every case one removal away: one caller action, one handler step, one tape entry, or one deviation undone. */
export function singleRemovals(c: SimCase): { what: string; case: SimCase }[] {
  const out: { what: string; case: SimCase }[] = [];
  const { scenario, tape } = c;
  scenario.actions.forEach((a, i) => {
    const actions = scenario.actions.filter((_, k) => k !== i);
    if (!actions.some((x) => x.kind === 'call')) return;
    out.push({ what: `caller action #${i} (${a.kind})`, case: { ...c, scenario: pruneHandlers({ ...scenario, actions: dropDanglingAborts(actions) }) } });
  });
  for (const [name, program] of Object.entries(scenario.handlers)) {
    program.steps.forEach((step, k) => {
      const steps = program.steps.filter((_, j) => j !== k);
      out.push({
        what: `step #${k} (${step.kind}) of handler ${name}`,
        case: { ...c, scenario: { ...scenario, handlers: { ...scenario.handlers, [name]: { ...program, steps } as HandlerProgram } } },
      });
    });
  }
  tape.forEach((choice, k) => {
    out.push({ what: `tape entry #${k}`, case: { ...c, tape: tape.filter((_, j) => j !== k) } });
    if (choice !== 0) out.push({ what: `deviation at tape #${k}`, case: { ...c, tape: tape.map((x, j) => (j === k ? 0 : x)) } });
  });
  return out;
}

/**
 * Every case one simplification away: a handler that answers instead of failing or hanging, that
 * honours its abort, a call option dropped. Not removals, but a minimal case should need none of
 * them either.
 */
export function singleSimplifications(c: SimCase): { what: string; case: SimCase }[] {
  const out: { what: string; case: SimCase }[] = [];
  const { scenario } = c;
  for (const [name, program] of Object.entries(scenario.handlers)) {
    const withProgram = (p: HandlerProgram) => ({ ...c, scenario: { ...scenario, handlers: { ...scenario.handlers, [name]: p } } });
    if (program.end.kind !== 'result') out.push({ what: `handler ${name} answers`, case: withProgram({ ...program, end: { kind: 'result' } }) });
    if (program.onAbort !== 'honour') out.push({ what: `handler ${name} honours aborts`, case: withProgram({ ...program, onAbort: 'honour' }) });
  }
  const aborted = new Set(scenario.actions.flatMap((a) => (a.kind === 'abort' ? [a.signal] : [])));
  scenario.actions.forEach((a, i) => {
    if (a.kind !== 'call') return;
    for (const key of Object.keys(a.options) as (keyof CallOptions)[]) {
      if (key === 'signal' && aborted.has(a.options.signal!)) continue;
      const options = { ...a.options };
      delete options[key];
      const actions = scenario.actions.map((x, k) => (k === i ? { ...a, options } : x));
      out.push({ what: `call ${a.call} without ${key}`, case: { ...c, scenario: { ...scenario, actions } } });
    }
  });
  if (c.seed !== 0) out.push({ what: 'run seed 0', case: { ...c, seed: 0 } });
  if (scenario.http?.clients !== undefined && scenario.http.clients > 1) {
    // Everything on the first client: a race that needs no second session needs no second client.
    const { clients: _, ...mode } = scenario.http;
    const actions = scenario.actions.map((a) => {
      if (!('client' in a)) return a;
      const { client: __, ...rest } = a as CallerAction & { client?: number };
      return rest as CallerAction;
    });
    out.push({ what: 'one client', case: { ...c, scenario: { ...scenario, http: mode, actions } } });
  }
  return out;
}

/** A tape's trailing natural choices change nothing: past the tape's end the natural choice is taken. */
function trimTape(tape: readonly number[]): number[] {
  let end = tape.length;
  while (end > 0 && tape[end - 1] === 0) end--;
  return tape.slice(0, end);
}

/** An abort whose signal no remaining call uses would be rejected by the runner; it goes too. */
function dropDanglingAborts(actions: CallerAction[]): CallerAction[] {
  const signals = new Set<string>();
  return actions.filter((a) => {
    if (a.kind === 'call' && a.options.signal) signals.add(a.options.signal);
    return a.kind !== 'abort' || signals.has(a.signal);
  });
}

function pruneHandlers(scenario: Scenario): Scenario {
  const used = new Set<string>();
  for (const a of scenario.actions) if (a.kind === 'call') used.add(a.handler);
  for (const p of Object.values(scenario.handlers)) for (const s of p.steps) if (s.kind === 'call' && s.handler) used.add(s.handler);
  return { ...scenario, handlers: Object.fromEntries(Object.entries(scenario.handlers).filter(([n]) => used.has(n))) };
}

/**
 * Greedy reduction to a 1-minimal case: applies any single removal or simplification that keeps
 * the failure, until none does. fast-check's shrinking gets close; this pass makes "no removable request, step or
 * deviation" hold by construction.
 */
export async function minimize(c: SimCase, fails: (c: SimCase) => Promise<boolean>): Promise<{ case: SimCase; removals: number }> {
  let current: SimCase = { ...c, tape: trimTape(c.tape) };
  let removals = 0;
  for (let changed = true; changed; ) {
    changed = false;
    for (const candidate of [...singleRemovals(current), ...singleSimplifications(current)]) {
      const next = { ...candidate.case, tape: trimTape(candidate.case.tape) };
      if (await fails(next)) {
        current = next;
        removals++;
        changed = true;
        break;
      }
    }
  }
  return { case: current, removals };
}
