import type { JsonValue } from '../util/json.ts';
import type { Anchor, Plan, PlannedCall } from '../real/plan.ts';

/** Whether a tool's input schema declares an argument (`declaredArguments`): by tool name. */
export type DeclaredArguments = ReadonlyMap<string, (key: string) => boolean>;

/** What a target's plans are shrunk with, besides the plan. */
export interface PlanShrinkOptions {
  /** Tools whose arguments are fixed (the user's `--args` sets, a test bed's program): never changed. */
  readonly fixed?: ReadonlySet<string>;
  /** Each tool's declared arguments: the ones its schema does not declare are dropped first, all at once. */
  readonly declared?: DeclaredArguments;
  /** The arguments of a call that depend on its label (`PlanConstraints.labelled`), redone when calls are renumbered. */
  readonly labelled?: (args: { readonly [key: string]: JsonValue }, label: string) => { readonly [key: string]: JsonValue };
}

/**
 * Smaller plans than `plan`, simplest first: the arguments no schema declares dropped (what a
 * person reads first in a minimal case is noise otherwise: `{"g":"o6}0p:w/", …}`), fewer calls
 * (the rest renumbered from `c1`), then no timeout, no cancel, no token, smaller arguments (not
 * for the tools of `fixed`). Each candidate is run again and kept only if it still fails, so a
 * server that reads an undeclared argument keeps it.
 */
export function planShrinks(plan: Plan, options: PlanShrinkOptions = {}): Plan[] {
  const fixed = options.fixed ?? new Set<string>();
  const out: Plan[] = [];
  const undeclared = plan.calls.map((c) => {
    const declared = options.declared?.get(c.tool);
    return declared && !fixed.has(c.tool) ? Object.keys(c.arguments).filter((k) => !declared(k)) : [];
  });
  if (undeclared.some((keys) => keys.length > 0)) {
    out.push({ ...plan, calls: plan.calls.map((c, k) => (undeclared[k]!.length === 0 ? c : { ...c, arguments: Object.fromEntries(Object.entries(c.arguments).filter(([key]) => !undeclared[k]!.includes(key))) })) });
  }
  for (const c of plan.calls) {
    if (plan.calls.length === 1 || plan.calls.some((o) => o.sameIdAs === c.label)) continue;
    // Calls anchored on the one removed keep their delay, from the handshake instead.
    const rest = plan.calls.filter((o) => o !== c).map((o) => (o.at.kind !== 'start' && o.at.call === c.label ? { ...o, at: { kind: 'start' as const, ms: o.at.ms } } : o));
    const close = plan.close && plan.close.kind !== 'start' && plan.close.call === c.label ? undefined : plan.close;
    const { close: _close, ...open } = plan;
    out.push(renumbered({ ...open, ...(close && { close }), calls: rest }, options.labelled));
  }
  const each = (f: (c: Plan['calls'][number]) => Plan['calls'][number] | undefined) => {
    plan.calls.forEach((c, k) => {
      const next = f(c);
      if (next) out.push({ ...plan, calls: plan.calls.map((o, j) => (j === k ? next : o)) });
    });
  };
  each((c) => (c.timeout ? (({ timeout: _t, ...rest }) => rest)(c) : undefined));
  each((c) => (c.cancel ? (({ cancel: _c, cancelHow: _h, ...rest }) => rest)(c) : undefined));
  each((c) => (c.sameIdAs ? (({ sameIdAs: _s, ...rest }) => rest)(c) : undefined));
  each((c) => (c.at.kind === 'start' && c.at.ms > 0 ? { ...c, at: { kind: 'start', ms: 0 } } : undefined));
  each((c) => (c.progressToken === undefined ? undefined : (({ progressToken: _p, ...rest }) => rest)(c)));
  // Arguments: none at all, then one member fewer (a candidate the server rejects fails to reproduce, and is dropped).
  each((c) => (Object.keys(c.arguments).length > 0 && !fixed.has(c.tool) ? { ...c, arguments: {} } : undefined));
  plan.calls.forEach((c, k) => {
    if (fixed.has(c.tool)) return;
    for (const key of Object.keys(c.arguments)) {
      const { [key]: _drop, ...args } = c.arguments;
      out.push({ ...plan, calls: plan.calls.map((o, j) => (j === k ? { ...c, arguments: args } : o)) });
    }
  });
  if (plan.serverRequests !== 'answer') out.push({ ...plan, serverRequests: 'answer' });
  if (plan.close) out.push((({ close: _close, ...rest }) => rest)(plan));
  return out;
}

/**
 * The plan with its calls labelled `c1`, `c2`, … in order: what anchors, cancels, the close and
 * a duplicate id name follows, and so does a string progress token drawn for the old label
 * (`"m.-c2"` becomes `"m.-c1"`, as `planArbitrary` draws it). A case of one call says `c1`.
 */
export function renumbered(plan: Plan, labelled?: PlanShrinkOptions['labelled']): Plan {
  const names = new Map(plan.calls.map((c, k) => [c.label, `c${k + 1}`]));
  if ([...names].every(([from, to]) => from === to)) return plan;
  const name = (label: string) => names.get(label) ?? label;
  const anchor = (a: Anchor): Anchor => (a.kind === 'start' ? a : { ...a, call: name(a.call) });
  const calls = plan.calls.map((c): PlannedCall => {
    const label = name(c.label);
    const token = typeof c.progressToken === 'string' && c.progressToken.endsWith(`-${c.label}`) ? `${c.progressToken.slice(0, -c.label.length)}${label}` : c.progressToken;
    return {
      ...c,
      label,
      arguments: labelled ? labelled(c.arguments, label) : c.arguments,
      ...(token !== undefined && { progressToken: token }),
      at: anchor(c.at),
      ...(c.cancel && { cancel: anchor(c.cancel) }),
      ...(c.sameIdAs !== undefined && { sameIdAs: name(c.sameIdAs) }),
    };
  });
  return { ...plan, calls, ...(plan.close && { close: anchor(plan.close) }) };
}
