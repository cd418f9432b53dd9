import { describe, expect, it } from 'vitest';
import { mergeShards, MergeError, type ShardInput } from '../../src/campaign/merge.ts';
import { emptyTally, mergeTally, runCampaign, runCases, type CampaignReport } from '../../src/campaign/runCampaign.ts';
import { shardRange } from '../../src/campaign/shard.ts';
import { resolveCampaignOptions, type CampaignOptions } from '../../src/options/index.ts';
import { standInRunner } from './standIn.ts';

const options = (input: CampaignOptions) => resolveCampaignOptions({ seed: 99, runs: 60, workload: { profiles: ['memory', 'http'], actionsMax: 5 }, workers: 1, ...input }, {});
/** A report as JSON would carry it, without timings. */
const untimed = (r: CampaignReport) => JSON.stringify({ ...r, wallMs: 0, runWallMs: 0, runsPerSecond: 0 });

describe('campaign tallies', () => {
  const job = { seed: 99, workload: options({}).workload, selfCheck: false };

  it('tallies of neighbouring slices merge into the tally of the whole range, key order included', async () => {
    const whole = await runCases({ ...job, from: 0, to: 60 }, standInRunner);
    const parts = await Promise.all([[0, 7], [7, 31], [31, 32], [32, 60]].map(([from, to]) => runCases({ ...job, from: from!, to: to! }, standInRunner)));
    const merged = parts.reduce((into, next) => mergeTally(into, next), emptyTally(0));
    expect(JSON.stringify({ ...merged, found: [...merged.found] })).toBe(JSON.stringify({ ...whole, found: [...whole.found] }));
    expect(() => mergeTally(emptyTally(0), parts[1]!)).toThrow('mergeTally: cases from 7 do not follow cases up to 0');
  });

  it('shards are contiguous slices that hold every case exactly once, sizes within one of each other', () => {
    for (const runs of [1, 2, 7, 10, 300, 1001]) {
      for (let count = 1; count <= Math.min(runs, 9); count++) {
        const slices = Array.from({ length: count }, (_, i) => shardRange(i + 1, count, runs));
        expect(slices[0]!.from).toBe(0);
        expect(slices.at(-1)!.to).toBe(runs);
        slices.slice(1).forEach((s, i) => expect(s.from).toBe(slices[i]!.to));
        const sizes = slices.map((s) => s.to - s.from);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
      }
    }
    expect(() => shardRange(3, 2, 10)).toThrow(RangeError);
  });

  it('merging shard reports (as JSON) gives the unsharded report, shrunk counterexamples included', async () => {
    const shrinking = { shrinkTimeMsMax: 5_000 };
    const whole = await runCampaign(options(shrinking), { runner: standInRunner });
    const docs: ShardInput[] = [];
    for (const index of [2, 4, 1, 3]) {
      const shard = await runCampaign(options({ ...shrinking, shard: `${index}/4` }), { runner: standInRunner });
      expect(shard.shard).toEqual({ index, count: 4, ...shardRange(index, 4, 60) });
      docs.push({ file: `shard-${index}.json`, document: JSON.parse(JSON.stringify({ sdk: { name: 's', version: '1' }, tool: { name: 't', version: '1' }, ...shard })) });
    }
    const { report } = mergeShards(docs);
    expect(report.findings.filter((f) => f.counterexample).length).toBe(whole.findings.length);
    expect(untimed(report)).toBe(untimed(JSON.parse(JSON.stringify(whole))));
    expect(() => mergeShards(docs.slice(1))).toThrow(MergeError);
    expect(() => mergeShards([])).toThrow('merge: no shard reports given');
  });

  it('stopped between runs (Ctrl-C), reports the runs done unshrunk: the report of that many runs', async () => {
    const stop = new AbortController();
    const cut = await runCampaign(options({ runs: 1000 }), { runner: standInRunner, signal: stop.signal, onProgress: (done) => done === 23 && stop.abort() });
    expect(cut).toMatchObject({ runs: 23, planned: 1000, stopped: 'interrupted' });
    expect(cut.findings.every((f) => f.counterexample === undefined)).toBe(true);
    const whole = await runCampaign(options({ runs: 23, shrink: false }), { runner: standInRunner });
    expect(untimed({ ...cut, stopped: undefined, planned: 23, shrink: false })).toBe(untimed({ ...whole, stopped: undefined }));
  });

  it('stopped while shrinking, keeps every run and cuts shrinking short', async () => {
    const stop = new AbortController();
    const report = await runCampaign(options({ runs: 40 }), {
      runner: standInRunner,
      signal: stop.signal,
      onProgress: (done, _total, phase) => phase === 'shrink' && done === 1 && stop.abort(),
    });
    expect(report).toMatchObject({ runs: 40, stopped: 'interrupted' });
    expect(report.findings[0]!.counterexample).toBeDefined();
    expect(report.findings.slice(1).every((f) => f.counterexample === undefined)).toBe(true);
  });
});
