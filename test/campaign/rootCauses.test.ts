import { describe, expect, it } from 'vitest';
import { knownCausesOf, loadBaseline } from '../../src/baseline/baseline.ts';
import { knownFinding } from '../../src/baseline/known.ts';
import { countedFindings, foldsUnderRoot } from '../../src/campaign/rootCauses.ts';
import { addRecord, emptyTally, mergeTally, recordOf, runCampaign, runCases, summarize, type CheckedRunner } from '../../src/campaign/runCampaign.ts';
import { runChecked } from '../../src/check/index.ts';
import { coverage, finding, type Finding } from '../../src/model/index.ts';
import { resolveCampaignOptions, resolveWorkload } from '../../src/options/index.ts';
import { formatCampaignReport } from '../../src/report/textReport.ts';
import { installedSdk } from '../../src/sdk/load.ts';
import type { RunResult } from '../../src/sim/index.ts';
import { seed99Case14622 } from '../model/shrunkCases.ts';

const dup = finding('rpc.request-id-unique', 5, 'the server reused request id 0 on connection 1.', 'server:0', { sender: 'server', conn: 1, ids: ['n0'] });
const knock = (id: Parameters<typeof finding>[0], root: Finding, at = 9): Finding => ({
  ...finding(id, at, `${id} (knock-on)`, 's1', { sender: 'server', conn: 1, ids: ['n0'] }),
  rootCause: { invariant: root.invariant, ...(root.request !== undefined && { request: root.request }), at: root.at },
});
const notAborted = finding('cancel.handler-aborted', 7, 'the cancellation of request 0 was not honoured.', 's1');

describe('root causes in a campaign', () => {
  it('a knock-on is counted under its root, unless it is more severe than the root', () => {
    const closeSettles = knock('lifecycle.close-settles', dup);
    const neverEnds = knock('liveness.handler-ends', notAborted);
    const plain = finding('lifecycle.close-settles', 12, 'standalone', 'c1');
    expect(foldsUnderRoot(closeSettles)).toBe(true); // DERIVED under MUST
    expect(foldsUnderRoot(knock('cancel.no-response-after', notAborted))).toBe(true); // SHOULD under SHOULD
    expect(foldsUnderRoot(neverEnds)).toBe(false); // a DERIVED violation is not hidden under a SHOULD warning
    expect(foldsUnderRoot(plain)).toBe(false);
    const { counted, knockOns } = countedFindings([dup, closeSettles, knock('lifecycle.close-settles', dup, 10), notAborted, neverEnds, plain]);
    expect(counted.map((f) => f.invariant)).toEqual(['rpc.request-id-unique', 'cancel.handler-aborted', 'liveness.handler-ends', 'lifecycle.close-settles']);
    expect(counted.at(-1)).toBe(plain); // a close-settles finding without such a root still counts
    expect(knockOns).toEqual([closeSettles]);
  });

  it('runCampaign reports one entry per root cause, its knock-ons listed under it (stand-in runner)', async () => {
    const options = resolveCampaignOptions({ seed: 5, runs: 6, shrink: false, workload: { profiles: ['memory'] } }, {});
    let n = 0;
    const runner: CheckedRunner = async () => {
      n++;
      // Runs 1, 3, 5: the root and its knock-on; run 4: a close-settles of its own.
      const findings = n % 2 === 1 ? [dup, knock('lifecycle.close-settles', dup)] : n === 4 ? [finding('lifecycle.close-settles', 3, 'standalone', 'c1')] : [];
      const result = { trace: [], hash: String(n), outcome: { kind: 'quiescent' }, steps: 1, virtualMs: 1, taken: [], workloadDone: true } as unknown as RunResult;
      return { result, findings, coverage: coverage([]) };
    };
    const report = await runCampaign(options, { runner });
    expect(report.findings.map((f) => [f.invariant, f.runs, f.firstCase])).toEqual([
      ['lifecycle.close-settles', 1, 3],
      ['rpc.request-id-unique', 3, 0],
    ]);
    const root = report.findings.find((f) => f.invariant === 'rpc.request-id-unique')!;
    expect(root.knockOns?.map((k) => [k.invariant, k.runs, k.firstCase])).toEqual([['lifecycle.close-settles', 3, 0]]);
    expect(report.findings[0]!.knockOns).toBeUndefined();
    // Tallies of neighbouring slices merge into the tally of the whole, knock-ons included.
    const job = { seed: 5, workload: options.workload, selfCheck: false };
    n = 0;
    const first = await runCases({ ...job, from: 0, to: 3 }, runner);
    const second = await runCases({ ...job, from: 3, to: 6 }, runner);
    const merged = summarize(mergeTally(first, second), { seed: 5, workload: options.workload, planned: 6, selfCheck: false, shrink: false, wallMs: 1, runWallMs: 1 });
    expect(merged.findings.map((f) => [f.invariant, f.runs, f.knockOns?.map((k) => k.runs)])).toEqual([
      ['lifecycle.close-settles', 1, undefined],
      ['rpc.request-id-unique', 3, [3]],
    ]);
  });

  it('the shrunk seed-99 case: lifecycle.close-settles is counted under rpc.request-id-unique, known with it, and listed under it in the report', async () => {
    // Found by a campaign of seed 99 (case 14622 under the generator of the time), shrunk to two calls and a reconnect.
    const sdk = installedSdk();
    const baseline = loadBaseline(sdk.name, sdk.version);
    const known = knownCausesOf(baseline);
    const shrunk = { scenario: seed99Case14622, tape: [], seed: 0 };
    const checked = await runChecked(shrunk.scenario, { tape: shrunk.tape, seed: shrunk.seed });
    const tally = addRecord(emptyTally(0), recordOf(0, checked, undefined, { case: shrunk, known, inBaselineCampaign: false }));
    const workload = resolveWorkload();
    const report = summarize(tally, { seed: 99, workload, planned: 1, selfCheck: false, shrink: false, wallMs: 1, runWallMs: 1, known });
    const ids = report.findings.map((f) => f.invariant);
    expect(ids).not.toContain('lifecycle.close-settles');
    const root = report.findings.find((f) => f.invariant === 'rpc.request-id-unique')!;
    expect(root.knockOns?.map((k) => k.invariant)).toContain('lifecycle.close-settles');

    // What check's verdict reads: no finding of the run is new, the knock-on included.
    expect(report.findings.filter((f) => f.fresh).map((f) => f.invariant)).toEqual([]);

    const text = formatCampaignReport(report, { replayFiles: new Map(), madeWith: { tool: { name: 'mcp-sim', version: '0.0.0' }, sdk } });
    expect(text).toMatch(/knock-on effect: lifecycle\.close-settles \(DERIVED\) in 1 of these runs, first in case 0: connection 1 closed at the client/);

    // The property suite's test: the knock-on is known because its root is.
    const f = checked.findings.find((g) => g.invariant === 'lifecycle.close-settles')!;
    expect(f.rootCause?.invariant).toBe('rpc.request-id-unique');
    expect(knownFinding(baseline, shrunk, f)).toBe(true);
    const { rootCause: _root, ...alone } = f;
    expect(knownFinding(baseline, shrunk, alone)).toBe(false);
  });
});
