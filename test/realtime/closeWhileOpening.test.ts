import { describe, expect, it } from 'vitest';
import { fuzzProcess } from '../../src/campaign/checkTarget.ts';
import { ownedPids } from '../../src/real/processRegistry.ts';

const fixture = new URL('../target/fixtures/workServer.mjs', import.meta.url).pathname;

describe('a campaign that ends while a shared connection is still starting (black box, real time)', () => {
  it('closes that connection when it opens: no server process outlives the report (the CLI exits)', async () => {
    // Every start-up takes 2.5 s: the second shared connection is still starting when the ten
    // short runs are done on the first one (a Python server on a busy machine starts this slowly).
    const report = await fuzzProcess({ command: [process.execPath, fixture, '--slow-start', '2500'] }, { hangAfterMs: 700, inFlightMs: 100, graceMs: 400, runs: 10, parallel: 2, rateRuns: 1, shrink: false });
    expect(report.passed).toBe(true);
    expect(ownedPids()).toEqual([]);
  }, 60_000);
});
