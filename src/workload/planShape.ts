import type { Plan } from '../real/plan.ts';

/**
 * The features a real-time case uses, as the campaign tells causes apart: two minimal cases of
 * one invariant with different shapes are two causes (src/campaign/cause.ts does the same for
 * simulated cases). A case that lacks some feature of every known minimal shape cannot be one
 * of those causes.
 */
export function planShape(plan: Plan): Set<string> {
  const f = new Set<string>();
  if (plan.calls.length > 1) f.add('concurrent');
  for (const c of plan.calls) {
    if (c.progressToken !== undefined) f.add('progress-token');
    if (c.cancel) {
      f.add(c.cancelHow === 'drop' ? 'drop' : c.cancelHow === 'both' ? 'cancel+drop' : 'cancel');
      if (c.cancel.kind === 'progress') f.add('cancel-after-progress');
    }
    if (c.timeout) f.add(c.timeout.resetOnProgress ? 'timeout-reset-on-progress' : 'timeout');
    if (c.sameIdAs !== undefined) f.add('duplicate-id');
  }
  if (plan.serverRequests !== 'answer') f.add(`server-request-${plan.serverRequests}`);
  if (plan.close) f.add('close');
  return f;
}
