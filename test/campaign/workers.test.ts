import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { campaignOn } from '../../src/campaign/check.ts';
import type { CampaignReport } from '../../src/campaign/runCampaign.ts';
import { CampaignWorkers, WorkerFailure } from '../../src/campaign/workerPool.ts';
import { resolveCampaignOptions, resolveWorkload } from '../../src/options/index.ts';
import { defaultSdk } from '../../src/sdk/load.ts';

/** A report without its timings: what must not depend on how the runs were spread. */
const untimed = (r: CampaignReport) => JSON.parse(JSON.stringify({ ...r, wallMs: 0, runWallMs: 0, runsPerSecond: 0 }, (_k, v) => (v instanceof RegExp ? v.source : v)));

const faulty = new URL('./fixtures/faultyWorker.ts', import.meta.url);
const job = { seed: 1, workload: resolveWorkload({ profiles: ['memory'] }), selfCheck: false, from: 0, to: 40 };

describe('campaign worker threads', () => {
  let pool: CampaignWorkers | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
    delete process.env['MCP_SIM_TEST_WORKER_FAULT'];
  });

  it('stopped between runs, report the longest prefix of cases done: the report of that many runs in one thread', async () => {
    const sdk = await defaultSdk();
    const options = resolveCampaignOptions({ seed: 21, runs: 100_000, workers: 2, shrink: false, workload: { profiles: ['memory'] } }, {});
    const stop = new AbortController();
    const cut = await campaignOn(sdk, options, (done) => done >= 100 && stop.abort(), { signal: stop.signal });
    expect(cut.stopped).toBe('interrupted');
    expect(cut.runs).toBeGreaterThanOrEqual(100);
    expect(cut.runs).toBeLessThan(100_000);
    const whole = await campaignOn(sdk, { ...options, runs: cut.runs, workers: 1 });
    expect({ ...untimed(cut), stopped: undefined, planned: cut.runs }).toEqual({ ...untimed(whole), stopped: undefined });
  });

  it('a worker that cannot load the SDK fails the campaign, saying which worker and why', async () => {
    const sdk = await defaultSdk();
    pool = CampaignWorkers.start({ count: 1, sdk: { root: mkdtempSync(join(tmpdir(), 'mcp-sim-no-sdk-')), name: sdk.name, version: sdk.version } });
    const error = await pool.runCases(job, { shouldStop: () => false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerFailure);
    expect((error as Error).message).toMatch(/^campaign worker 1 failed to start: mcp-sim: no @modelcontextprotocol\/sdk in folder /);
  });

  it.each([
    ['throw', /^campaign worker [12] failed: a run threw while running cases (0\.\.\d+|\d+\.\.\d+) of seed 1 \(case \d+\): the run threw on purpose\n {4}Error: the run threw on purpose/],
    ['exit', /^campaign worker [12] exited \(code 3\) while running cases \d+\.\.\d+ of seed 1$/],
    ['crash', /^campaign worker [12] crashed while running cases \d+\.\.\d+ of seed 1: uncaught on purpose/],
    ['no-start', /^campaign worker [12] failed to start: cannot load the SDK \(on purpose\)$/],
  ])('a worker that fails (%s) fails the campaign with a WorkerFailure naming the worker and the cases it held', async (fault, message) => {
    process.env['MCP_SIM_TEST_WORKER_FAULT'] = fault;
    const sdk = await defaultSdk();
    pool = CampaignWorkers.start({ count: 2, sdk, entry: faulty });
    const error = await pool.runCases(job, { shouldStop: () => false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerFailure);
    expect((error as Error).message).toMatch(message);
    if (fault === 'throw') expect((error as WorkerFailure).caseIndex).toEqual(expect.any(Number));
  });

  it('a failing shrink fails the campaign too', async () => {
    process.env['MCP_SIM_TEST_WORKER_FAULT'] = 'throw';
    const sdk = await defaultSdk();
    pool = CampaignWorkers.start({ count: 1, sdk, entry: faulty });
    const error = await pool
      .shrinkAll([{ invariant: 'cancel.not-initialize', fcSeed: 1 }], { workload: job.workload, shrinkTimeMsMax: 1_000 }, { cut: () => false })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^campaign worker 1 failed while shrinking cancel.not-initialize: the run threw on purpose/);
  });
});
