import type { ClientProgram } from '../real/clientScript.ts';

/**
 * The features a generated client case uses, as the real campaign tells causes apart (as
 * `planShape` does for a server's cases): two minimal cases of one invariant with different
 * shapes are two causes, and a run whose case lacks a feature of a minimal shape is not that
 * cause's.
 */
export function clientCaseShape(p: ClientProgram): Set<string> {
  const f = new Set<string>();
  const calls = p.script.actions.filter((a) => a.kind === 'call');
  if (calls.length > 1) f.add('concurrent');
  for (const a of p.script.actions) {
    if (a.kind === 'abort') f.add('abort');
    else if (a.kind === 'close') f.add('close');
    else {
      if (a.progress) f.add('progress');
      if (a.timeoutMs !== undefined) f.add(a.resetTimeoutOnProgress ? 'timeout-reset-on-progress' : 'timeout');
      if (a.maxTotalTimeoutMs !== undefined) f.add('max-total');
    }
  }
  for (const plan of Object.values(p.plan.calls)) {
    if (plan.end.kind !== 'result') f.add(`end-${plan.end.kind}`);
    if (plan.onCancel !== 'stop') f.add(`on-cancel-${plan.onCancel}`);
    if ((plan.after ?? []).some((s) => s.kind === 'progress')) f.add('late-progress');
    for (const s of plan.steps) {
      if (s.kind === 'progress') f.add(s.token === 'invented' ? 'invented-token' : 'server-progress');
      if (s.kind !== 'request') continue;
      f.add(s.method);
      if (s.cancelAfterMs !== undefined) f.add('server-cancel');
      if (s.id !== undefined) f.add(s.id === 0 ? 'server-request-id-0' : 'server-request-same-id');
    }
  }
  const policy = p.script.serverRequests;
  const asks = Object.values(p.plan.calls).some((plan) => plan.steps.some((s) => s.kind === 'request'));
  if (!asks) return f;
  if (policy.hang) f.add('handlers-hang');
  else if (policy.delayMs > 0) f.add('handlers-slow');
  return f;
}
