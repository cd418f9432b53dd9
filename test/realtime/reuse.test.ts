import { describe, expect, it } from 'vitest';
import { judgeObserved } from '../../src/model/judgeObserved.ts';
import { fuzzProcess } from '../../src/campaign/checkTarget.ts';
import { SharedConnection, type CaseWaits } from '../../src/real/sharedConnection.ts';
import type { Plan } from '../../src/real/plan.ts';
import { stdioEndpoint } from '../../src/targets/index.ts';

const fixture = new URL('../target/fixtures/workServer.mjs', import.meta.url).pathname;
const bounds = { hangAfterMs: 700, inFlightMs: 100, graceMs: 400 };
const waits: CaseWaits = { hangAfterMs: 700, inFlightMs: 100, quietMs: () => 100 };
const call = (token: number, steps = 2, stepMs = 10): Plan => ({ serverRequests: 'answer', calls: [{ label: 'c1', tool: 'work', arguments: { steps, stepMs }, progressToken: token, at: { kind: 'start', ms: 0 } }] });
const progressTokens = (trace: readonly { kind: string; frame?: unknown }[]) =>
  trace.flatMap((e) => (e.kind === 'deliver' && typeof e.frame === 'object' && e.frame !== null && 'params' in e.frame ? [(e.frame as { params: { progressToken?: unknown } }).params.progressToken] : []));

describe('shared connections: many cases at once on one process or session, each on its own slice (black box, real time)', () => {
  it('a fault that needs state earlier cases left is seen on shared connections, never on a fresh process: both rates, and it does not fail the run', async () => {
    const report = await fuzzProcess({ command: [process.execPath, fixture, '--fault', 'state-carries'] }, { ...bounds, runs: 6, parallel: 1, rateRuns: 4, shrink: false });
    expect(report.reuse).toMatchObject({ note: 'shared connections: state may carry over between cases' });
    const f = report.findings.find((x) => x.invariant === 'progress.token-requested');
    expect(f?.reuse?.note).toBe('shared connections: state may carry over between cases');
    expect(f?.rate.hits).toBe(0);
    expect(f?.reuse?.rate.hits).toBeGreaterThan(0);
    expect(f?.reuse?.onlyShared).toBe(true);
    expect(f?.confirmed).toBe(false);
    expect(f?.determinism).toMatch(/on a fresh process; \d+\/4 on shared connections: only shared connections show it/);
    expect(report.passed).toBe(true);
    // The same campaign, one process per case (--fresh): never four calls on a process, nothing found.
    const fresh = await fuzzProcess({ command: [process.execPath, fixture, '--fault', 'state-carries'] }, { ...bounds, runs: 4, parallel: 2, rateRuns: 1, shrink: false, fresh: true });
    expect(fresh.findings).toEqual([]);
    expect(fresh.reuse).toBeUndefined();
  });

  it('a rate is re-run --rate-runs times on fresh processes, in rounds of --parallel, never more (3 runs, 2 at once: 2 then 1)', async () => {
    const report = await fuzzProcess({ command: [process.execPath, fixture, '--fault', 'progress-own-token'] }, { ...bounds, runs: 2, parallel: 2, rateRuns: 3, shrink: false });
    const f = report.findings.find((x) => x.invariant === 'progress.token-requested');
    expect(f?.rate).toEqual({ hits: 3, runs: 3 });
    expect(f?.reuse?.rate.runs).toBe(3);
  });

  it('the shared connections of a campaign never share a request id: a stateless server that keys its answers by id alone gets no duplicate no case asked for', async () => {
    // The Python post-hangs example is such a server: with every connection numbering from 1, the
    // same id in flight on two of them orphaned a POST, a false hang seen in the campaign only.
    const server = { url: 'http://127.0.0.1:{port}/mcp', start: { command: [process.execPath, fixture, '--http', '--port', '{port}', '--fault', 'ids-across-sessions'] } };
    const report = await fuzzProcess(server, { ...bounds, runs: 24, parallel: 3, rateRuns: 2, shrink: false, seed: 7 });
    expect(report.reuse?.connections).toBeGreaterThan(1);
    expect(report.findings.map((f) => f.invariant)).toEqual([]);
  });

  it('cases at once on one process: each on its own ids and tokens (a token an earlier case used is renamed), each judged on its own slice', async () => {
    const target = stdioEndpoint({ command: [process.execPath, fixture] }, { graceMs: 400 });
    const shared = await SharedConnection.open(target, waits);
    const runs = await Promise.all([call(1, 4, 20), call(1, 2, 10), call(7, 3, 10)].map((p) => shared.run(p)));
    expect(shared.maxAtOnce).toBe(3);
    expect(runs.map((c) => c.atOnce)).toEqual([1, 2, 3]);
    // The second case's token 1 was the first one's: renamed.
    expect(runs[1]!.renamedTokens).toBe(1);
    const cases = await Promise.all(runs.map((c) => c.slice()));
    const own = cases.map((c) => new Set(progressTokens(c.trace)));
    expect([...own[0]!]).toEqual([1]);
    expect([...own[1]!]).toEqual([1_000_001]);
    expect([...own[2]!]).toEqual([7]);
    for (const c of cases) {
      const ids = c.trace.flatMap((e) => (e.kind === 'call-start' ? [e.id] : []));
      expect(ids).toHaveLength(1);
      // Its own request and answer, none of the others'.
      const calls = c.trace.flatMap((e) => (e.kind === 'send' && typeof e.frame === 'object' && e.frame !== null && 'method' in e.frame && e.frame.method === 'tools/call' ? [(e.frame as { id: unknown }).id] : []));
      expect(calls).toEqual(ids);
      const answers = c.trace.flatMap((e) => (e.kind === 'deliver' && typeof e.frame === 'object' && e.frame !== null && 'result' in e.frame ? [(e.frame as { id: unknown }).id] : []));
      expect(answers.filter((id) => typeof id === 'number' && id > 0)).toEqual(ids);
      expect(judgeObserved(c.trace, { clock: { kind: 'real', ...bounds } }).findings).toEqual([]);
      // Each slice starts with the handshake and is numbered from 0.
      expect(c.trace[0]).toMatchObject({ i: 0, kind: 'send' });
    }
    expect(new Set(cases.map((c) => c.trace.find((e) => e.kind === 'call-start')?.kind === 'call-start' && JSON.stringify(c.trace.find((e) => e.kind === 'call-start')))).size).toBe(3);
    await shared.close();
  });

  it('a frame of a case read after its slice was cut is counted late, never given to the next case; the last case holds the close', async () => {
    const target = stdioEndpoint({ command: [process.execPath, fixture, '--fault', 'late-progress'] }, { graceMs: 400 });
    const shared = await SharedConnection.open(target, waits);
    const firstRun = await shared.run(call(1));
    const secondRun = shared.run({ ...call(2), calls: [{ ...call(2).calls[0]!, arguments: { steps: 8, stepMs: 120 } }] });
    shared.drain(true);
    const lastRun = await secondRun;
    const [first, last] = await Promise.all([firstRun.slice(), lastRun.slice()]);
    // Its progress 600 ms after its result came after its quiet window (100 ms): late, in no slice.
    expect(first.lateFrames).toBe(1);
    expect(firstRun.heldClose).toBe(false);
    expect(lastRun.heldClose).toBe(true);
    expect(progressTokens(last.trace)).not.toContain(1);
    expect(judgeObserved(last.trace, { clock: { kind: 'real', ...bounds } }).findings.map((f) => f.invariant)).toEqual([]);
    // The close is in the slice that held it: stdin EOF and the exit.
    expect(last.trace.some((e) => e.kind === 'eof' && e.to === 'server')).toBe(true);
    expect(last.trace.some((e) => e.kind === 'exit')).toBe(true);
    expect(first.trace.some((e) => e.kind === 'exit')).toBe(false);
  });

  it('a long-lived connection forgets what no slice needs: what it keeps stays bounded while every slice stays whole (a campaign-long connection, a flooding server)', async () => {
    const target = stdioEndpoint({ command: [process.execPath, fixture] }, { graceMs: 400 });
    const shared = await SharedConnection.open(target, waits);
    const kept: number[] = [];
    let recorded = 0;
    // 12 rounds of 4 cases at once, each call with 250 progress: about 2,000 events a round.
    for (let round = 0; round < 12; round++) {
      const runs = await Promise.all([1, 2, 3, 4].map((t) => shared.run(call(100 * round + t, 250, 1))));
      const cases = await Promise.all(runs.map((c) => c.slice()));
      for (const c of cases) {
        expect(progressTokens(c.trace)).toHaveLength(250);
        expect(c.trace[0]).toMatchObject({ i: 0, kind: 'send' });
        expect(judgeObserved(c.trace, { clock: { kind: 'real', ...bounds } }).findings).toEqual([]);
        recorded += c.trace.length;
      }
      kept.push(shared.open.recorder.events.length);
    }
    await shared.close();
    // Over 20,000 events went through it; it never held more than a few rounds' worth.
    expect(recorded).toBeGreaterThan(20_000);
    expect(Math.max(...kept)).toBeLessThan(6_000);
  });

  it('over HTTP with --start: one server process, many sessions; the correct server is clean', async () => {
    const report = await fuzzProcess({ url: 'http://127.0.0.1:{port}/mcp', start: { command: [process.execPath, fixture, '--http', '--port', '{port}'] } }, { ...bounds, runs: 6, parallel: 2, rateRuns: 1 });
    expect(report.findings.map((f) => f.invariant)).toEqual([]);
    expect(report.efficiency.startup.processes).toBe(1);
    expect(report.efficiency.startup.sessions).toBeGreaterThanOrEqual(1);
  });
});
