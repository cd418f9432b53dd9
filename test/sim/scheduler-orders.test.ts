import { describe, expect, it } from 'vitest';
import { exploreSchedules } from '../../src/sim/explore.ts';
import { summarizeFrame, type RunResult, type TraceEvent } from '../../src/sim/index.ts';
import { cancelRace, twoProgressTool } from './fixtures.ts';

/** Positions in the trace of frames the server received or sent, by summary prefix. */
const at = (run: RunResult, kind: TraceEvent['kind'], startsWith: string, side?: string) =>
  run.trace.findIndex(
    (e) =>
      e.kind === kind &&
      (e.kind === 'deliver' || e.kind === 'send') &&
      summarizeFrame(e.frame).startsWith(startsWith) &&
      (side === undefined || (e.kind === 'deliver' ? e.to : e.from) === side),
  );

const cancelArrives = (r: RunResult) => at(r, 'deliver', 'notifications/cancelled', 'server');
const progressSent = (r: RunResult, n: number) =>
  r.trace.filter((e) => e.kind === 'send' && e.from === 'server' && summarizeFrame(e.frame).startsWith('notifications/progress'))[n - 1]?.i ?? -1;
const responseSent = (r: RunResult) => at(r, 'send', 'result id=1', 'server');

describe('Scheduler: orders that matter are reachable (memory profile)', () => {
  it('delivers the cancel before any progress was sent', async () => {
    const run = await exploreSchedules(cancelRace(), (r) => cancelArrives(r) >= 0 && progressSent(r, 1) === -1);
    expect(run).toBeDefined();
  });

  it('delivers the cancel between the first and second progress', async () => {
    const run = await exploreSchedules(cancelRace({ ...twoProgressTool, onAbort: 'ignore' }), (r) => {
      const c = cancelArrives(r);
      return c >= 0 && progressSent(r, 1) >= 0 && progressSent(r, 1) < c && (progressSent(r, 2) === -1 || progressSent(r, 2) > c);
    });
    expect(run).toBeDefined();
  });

  it('delivers the cancel after the response was sent (cancel crosses the response)', async () => {
    // The caller aborts before the response reaches it, and the cancel reaches the server after
    // the response left: both are in flight at once.
    const crossed = (r: RunResult) => {
      const abort = r.trace.findIndex((e) => e.kind === 'abort-signal');
      const delivered = at(r, 'deliver', 'result id=1', 'client');
      return responseSent(r) >= 0 && cancelArrives(r) > responseSent(r) && abort >= 0 && (delivered === -1 || abort < delivered);
    };
    const run = await exploreSchedules(cancelRace(), crossed);
    expect(run).toBeDefined();
  });

  it('fires a timer between two deliveries', async () => {
    const scenario = {
      ...cancelRace(),
      actions: [{ kind: 'call' as const, call: 'c1', method: 'tools/call' as const, handler: 'tool', options: { timeoutMs: 100, onprogress: true } }],
    };
    const run = await exploreSchedules(scenario, (r) => {
      const timer = r.trace.findIndex((e) => e.kind === 'timer');
      const deliveries = r.trace.filter((e) => e.kind === 'deliver' && e.to === 'client' && e.conn === 1).map((e) => e.i);
      return timer >= 0 && deliveries.some((d) => d < timer) && deliveries.some((d) => d > timer);
    });
    expect(run).toBeDefined();
    expect(run!.trace.find((e) => e.kind === 'timer')).toMatchObject({ label: 'timeoutHandler', t: 100 });
  });

  it('delivers a progress and the response in one burst', async () => {
    const run = await exploreSchedules(cancelRace(), (r) =>
      r.trace.some((e) => e.kind === 'deliver' && e.burst > 1 && summarizeFrame(e.frame).startsWith('notifications/progress')) &&
      r.trace.some((e) => e.kind === 'deliver' && e.burst > 1 && summarizeFrame(e.frame).startsWith('result')),
    );
    expect(run).toBeDefined();
    const burst = run!.trace.filter((e) => e.kind === 'deliver' && e.burst > 1);
    // One synchronous turn: every frame of the burst carries the same scheduler step.
    expect(new Set(burst.map((e) => e.step)).size).toBe(1);
  });

  it('runs the natural order when the tape is empty: messages before handler steps, caller actions before time', async () => {
    const run = await exploreSchedules(cancelRace(), () => true);
    const firstTimer = run!.trace.findIndex((e) => e.kind === 'timer');
    const abort = run!.trace.findIndex((e) => e.kind === 'abort-signal');
    // The caller aborts at t=0, before any timer may advance virtual time.
    expect(abort).toBeGreaterThan(0);
    expect(run!.trace[abort]!.t).toBe(0);
    if (firstTimer >= 0) expect(firstTimer).toBeGreaterThan(abort);
    // The request is delivered before the handler's first step runs.
    const delivered = at(run!, 'deliver', 'tools/call', 'server');
    const firstStep = run!.trace.findIndex((e) => e.kind === 'handler-step');
    expect(delivered).toBeGreaterThan(0);
    expect(firstStep === -1 || delivered < firstStep).toBe(true);
  });
});
