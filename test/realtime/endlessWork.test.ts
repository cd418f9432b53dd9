import { describe, expect, it } from 'vitest';
import { Pace } from '../../src/campaign/real/pace.ts';
import type { Plan } from '../../src/real/plan.ts';
import { ownedPids } from '../../src/real/processRegistry.ts';
import { runPlan, type RealtimeRun } from '../../src/real/runPlan.ts';
import { stdioEndpoint } from '../../src/targets/index.ts';

const fixture = new URL('../target/fixtures/workServer.mjs', import.meta.url).pathname;
/** Its `work` works without end and the server ignores stdin EOF: every close waits this grace, then SIGTERM. */
const endpoint = stdioEndpoint({ command: [process.execPath, fixture, '--fault', 'endless'] }, { graceMs: 300 });
/** A call that works without end and says so: progress every 40 ms. */
const endless: Plan = { serverRequests: 'answer', calls: [{ label: 'c1', tool: 'work', arguments: { stepMs: 40 }, progressToken: 'p', at: { kind: 'start', ms: 0 } }] };
/** A call that works without end in silence (no progress token): stuck, as far as anyone can tell. */
const silent: Plan = { serverRequests: 'answer', calls: [{ label: 'c1', tool: 'work', arguments: {}, at: { kind: 'start', ms: 0 } }] };
/** The endless call's run ends at this bound (a campaign's is RUN_MS_MAX, 10 minutes). */
const RUN_MS = 5_000;

/**
 * The endless call on one process and, once it has worked a while, the silent call on another,
 * both with `pace`; which run ended first, and both runs.
 */
async function side(pace: Pace): Promise<{ first: 'endless' | 'silent'; endless: RealtimeRun; silent: RealtimeRun }> {
  let first: 'endless' | 'silent' | undefined;
  const a = runPlan(endpoint, endless, { hangAfterMs: 1_000, pace, runMsMax: RUN_MS, tailMs: 100 }).then((r) => ((first ??= 'endless'), r));
  await new Promise((r) => setTimeout(r, 500));
  const b = runPlan(endpoint, silent, { hangAfterMs: 1_000, pace, tailMs: 100 }).then((r) => ((first ??= 'silent'), r));
  const [endlessRun, silentRun] = await Promise.all([a, b]);
  return { first: first!, endless: endlessRun, silent: silentRun };
}

const exitOf = (run: RealtimeRun) => run.trace.find((e) => e.kind === 'exit');

// Issue 32: the reference server's long-running tool, given fuzzed arguments (a duration of 10^6 s
// in 10^7 steps), works without end while it reports progress (here workServer.mjs --fault
// endless); the campaign took every such call as what the tool takes (its progress, and its running
// time while alive, on any process), so a silent call of the tool on another process waited as long
// as the endless one ran, and every later one twice as long as it had run: runs of 10 minutes each,
// and the full fuzz:languages pass did not end in 38 minutes.
describe('a call that works without end holds only its own run (issue 32)', () => {
  it('a silent call on another process is left at its own bound (twice the stated duration), not held while the endless call runs; the endless call teaches nothing; each process, deaf to stdin EOF, is killed after the grace', async () => {
    const pace = new Pace({ work: 300 }, 1_000);
    const runs = await side(pace);
    expect(runs.first).toBe('silent');
    expect(runs.endless.outcome).toBe('real-time-bound');
    expect(runs.silent.outcome).toBe('real-time-bound');
    // What the tool has shown it takes is still what was stated: an endless call cut at its run's bound is no duration.
    expect(pace.toolMs).toEqual({ work: 300 });
    expect(pace.toolSilenceMs).toEqual({ work: 600 });
    for (const run of [runs.endless, runs.silent]) expect(exitOf(run)).toMatchObject({ kind: 'exit', after: 'sigterm', signal: 'SIGTERM' });
    expect(ownedPids()).toEqual([]);
  }, 30_000);

  it('while the tool has shown nothing else, a call of it still working anywhere is the only sign of how long it takes: the silent call waits for it', async () => {
    const pace = new Pace({}, 1_000);
    const runs = await side(pace);
    expect(runs.first).toBe('endless');
    expect(pace.toolMs).toEqual({});
    expect(ownedPids()).toEqual([]);
  }, 30_000);
});
