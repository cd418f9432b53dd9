import { describe, expect, it } from 'vitest';
import { confirmBlame, type JudgedRunner } from '../../src/check/confirmBlame.ts';
import { runChecked } from '../../src/check/index.ts';
import { finding, type Finding } from '../../src/model/finding.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import type { RunResult, Scenario } from '../../src/sim/index.ts';
import type { TraceEvent } from '../../src/sim/trace.ts';
import { call, handler, scenario } from '../model/fixtures.ts';
import { seed7Case1926, seed7Case1926Tape } from '../model/shrunkCases.ts';

const s = scenario({ h: handler() }, [call('c1', 'h'), call('c2', 'h')]);
const resultOf = (taken: number[], trace: TraceEvent[] = []) => ({ trace, taken, sdk: { facts: v1Facts } }) as unknown as RunResult;
const blame = finding('cancel.race-graceful', 4, 'call c2 … broke the session.', 'c2', { sender: 'client', conn: 1, call: 'c2', raced: ['c1'] });
const ev = (i: number, body: Record<string, unknown>): TraceEvent => ({ i, step: 1, t: 0, ...body }) as unknown as TraceEvent;
const c2Fails = [
  ev(0, { kind: 'call-start', call: 'c2', from: 'client', conn: 1, method: 'tools/call', id: 2, options: {} }),
  ev(1, { kind: 'call-settle', call: 'c2', from: 'client', outcome: 'rejected', message: 'Not connected' }),
];

/** A stand-in for the judged runs: records what it was asked to run, answers with `trace`. */
function recorder(trace: TraceEvent[]) {
  const runs: { scenario: Scenario; tape: readonly number[] | undefined }[] = [];
  const run: JudgedRunner = async (scenario, options) => {
    runs.push({ scenario, tape: options.tape });
    return { result: resultOf([], trace), findings: [] as Finding[] };
  };
  return { run, runs };
}

describe('confirmBlame', () => {
  it('a run without a blaming finding costs no second run', async () => {
    const { run, runs } = recorder(c2Fails);
    const findings = [finding('lifecycle.close-settles', 3, 'x', 'c1')];
    expect(await confirmBlame(s, { result: resultOf([1]), findings }, { tape: [1] }, run)).toBe(findings);
    expect(runs).toEqual([]);
  });

  it('asks the natural order first, on the same seed, and stops at the first verdict', async () => {
    const { run, runs } = recorder(c2Fails);
    const out = await confirmBlame(s, { result: resultOf([0, 1]), findings: [blame] }, { tape: [0, 1], seed: 3 }, run);
    expect(runs).toEqual([{ scenario: s, tape: [] }]);
    expect(out.map((f) => [f.invariant, f.reclassified?.counterfactual])).toEqual([['lifecycle.session-usable', 'natural order']]);
  });

  it('a run already in the natural order goes straight to the race removed; a confirmed blame stays as it was', async () => {
    const { run, runs } = recorder([c2Fails[0]!, ev(1, { kind: 'call-settle', call: 'c2', from: 'client', outcome: 'resolved' })]);
    const findings = [blame];
    expect(await confirmBlame(s, { result: resultOf([0, 0]), findings }, {}, run)).toBe(findings);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.tape).toEqual([]);
    expect(runs[0]!.scenario).not.toBe(s); // c1 without what cancels it
  });

  it('runChecked confirms: check, replay, baseline and properties all get the confirmed findings (seed 7 case 1926, shrunk)', async () => {
    const { findings } = await runChecked(seed7Case1926(), { tape: seed7Case1926Tape });
    expect(findings.map((f) => f.invariant)).not.toContain('cancel.race-graceful');
    expect(findings.map((f) => f.invariant)).toContain('http.stateless-server-request');
  });
});
