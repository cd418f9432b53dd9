import { SharedConnection, REUSE_NOTE } from '../../real/sharedConnection.ts';
import type { Endpoint } from '../../real/connection.ts';
import type { Plan } from '../../real/plan.ts';
import type { RealBounds, RealRun, TargetKind } from '../../targets/Target.ts';

export { REUSE_NOTE };

/**
 * `--reuse`: `plans` on shared connections, one per parallel slot, each case cut to its own slice
 * of the trace (`SharedConnection`). A connection is retired (and the slot opens a fresh one)
 * when it ended, stayed noisy after its barrier, or its case left a call running.
 */
export async function sharedRuns(kind: TargetKind, endpoint: Endpoint, plans: readonly Plan[], parallel: number, bounds: RealBounds, onDone?: () => void): Promise<RealRun[]> {
  const results: RealRun[] = new Array(plans.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, plans.length) }, async () => {
      let shared: SharedConnection | undefined;
      try {
        while (next < plans.length) {
          const k = next++;
          shared ??= await SharedConnection.open(endpoint);
          const r = await shared.run(endpoint, plans[k]!, bounds, { last: next >= plans.length });
          if (r.retired) shared = undefined;
          results[k] = { trace: r.trace, startupMs: r.startupMs, lateFrames: r.lateFrames };
          onDone?.();
        }
      } finally {
        await shared?.close();
      }
    }),
  );
  return results;
}
