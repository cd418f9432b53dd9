import type { Plan } from '../real/plan.ts';

/**
 * Smaller plans than `plan`, simplest first: fewer calls, then no timeout, no token change,
 * smaller arguments (not for the tools of `fixed`: their arguments are the user's `--args` sets,
 * or a test bed's program).
 */
export function planShrinks(plan: Plan, fixed: ReadonlySet<string> = new Set()): Plan[] {
  const out: Plan[] = [];
  for (const c of plan.calls) {
    if (plan.calls.length === 1 || plan.calls.some((o) => o.sameIdAs === c.label)) continue;
    // Calls anchored on the one removed keep their delay, from the handshake instead.
    const rest = plan.calls.filter((o) => o !== c).map((o) => (o.at.kind !== 'start' && o.at.call === c.label ? { ...o, at: { kind: 'start' as const, ms: o.at.ms } } : o));
    out.push({ ...plan, calls: rest });
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
