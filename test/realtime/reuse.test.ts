import { describe, expect, it } from 'vitest';
import { judgeObserved } from '../../src/model/judgeObserved.ts';
import { fuzzProcess } from '../../src/campaign/checkTarget.ts';
import { SharedConnection } from '../../src/real/sharedConnection.ts';
import type { Plan } from '../../src/real/plan.ts';
import { stdioEndpoint, httpEndpoint } from '../../src/targets/index.ts';

const fixture = new URL('../target/fixtures/workServer.mjs', import.meta.url).pathname;
const bounds = { hangAfterMs: 700, inFlightMs: 100, graceMs: 400 };
const call = (token: number): Plan => ({ serverRequests: 'answer', calls: [{ label: 'c1', tool: 'work', arguments: { steps: 2, stepMs: 10 }, progressToken: token, at: { kind: 'start', ms: 0 } }] });
const callsLeft = () => false;

describe('--reuse: many cases on one process or session, separated by a barrier (black box, real time)', () => {
  it('fuzzProcess --reuse: a fault that needs state earlier cases left is found on a shared process, and reported as such with both rates', async () => {
    const report = await fuzzProcess({ command: [process.execPath, fixture, '--fault', 'state-carries'] }, { ...bounds, runs: 5, parallel: 1, rateRuns: 4, shrink: false, reuse: true });
    expect(report.reuse).toMatchObject({ note: '--reuse: state may carry over between cases', connections: 1 });
    const f = report.findings.find((x) => x.invariant === 'progress.token-requested');
    expect(f?.reuse?.note).toBe('--reuse: state may carry over between cases');
    expect(f?.rate).toEqual({ hits: 0, runs: 4 });
    expect(f?.reuse?.rate.hits).toBeGreaterThan(0);
    expect(f?.determinism).toMatch(/with --reuse; 0\/4 on a fresh process: needs state an earlier case left$/);
    // The same campaign, one process per case: never four calls on a process, nothing found.
    const fresh = await fuzzProcess({ command: [process.execPath, fixture, '--fault', 'state-carries'] }, { ...bounds, runs: 4, parallel: 2, rateRuns: 1, shrink: false });
    expect(fresh.findings).toEqual([]);
    expect(fresh.reuse).toBeUndefined();
  });

  it('SharedConnection: a frame of case 1 read after its barrier is left out of case 2 (counted, not judged as case 2\'s)', async () => {
    const target = stdioEndpoint({ command: [process.execPath, fixture, '--fault', 'late-progress'] }, { graceMs: 400 });
    const shared = await SharedConnection.open(target);
    const first = await shared.run(target, call(1), bounds, { last: false, callsLeft });
    const second = await shared.run(target, { ...call(2), calls: [{ ...call(2).calls[0]!, arguments: { steps: 8, stepMs: 40 } }] }, bounds, { last: true, callsLeft });
    expect([first.retired, second.retired]).toEqual([false, true]);
    expect(first.startupMs).toBeGreaterThan(0);
    expect(second.startupMs).toBeUndefined();
    expect(second.lateFrames).toBe(1);
    const tokens = second.trace.flatMap((e) => (e.kind === 'deliver' && typeof e.frame === 'object' && e.frame !== null && 'params' in e.frame ? [JSON.stringify(e.frame.params)] : []));
    expect(tokens.some((t) => t.includes('"progressToken":1'))).toBe(false);
    expect(judgeObserved(second.trace, { clock: { kind: 'real', ...bounds } }).findings.map((f) => f.invariant)).toEqual([]);
    // Each slice starts with the handshake and is numbered from 0; the process exit ends the last one.
    expect(second.trace[0]).toMatchObject({ i: 0, kind: 'send' });
    expect(second.trace.some((e) => e.kind === 'exit')).toBe(true);
  });

  it('fuzzProcess --reuse over HTTP: the cases share one session; the correct server is clean', async () => {
    const report = await fuzzProcess({ url: 'http://127.0.0.1:{port}/mcp', start: { command: [process.execPath, fixture, '--http', '--port', '{port}'] } }, { ...bounds, runs: 4, parallel: 1, rateRuns: 1, reuse: true });
    expect(report.findings.map((f) => f.invariant)).toEqual([]);
    expect(report.reuse?.connections).toBeLessThanOrEqual(2);
  });
});
