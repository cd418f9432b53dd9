import { describe, expect, it } from 'vitest';
import { fuzzProcess } from '../../src/campaign/checkTarget.ts';
import { runPlanOn } from '../../src/campaign/real/realCampaign.ts';
import type { Plan } from '../../src/real/plan.ts';
import { stdioEndpoint } from '../../src/targets/index.ts';

const fixture = new URL('../target/fixtures/workServer.mjs', import.meta.url).pathname;
/** `--hang-after` well under the 4 s the fixture's `slow` tool takes. */
const bounds = { hangAfterMs: 1_000, inFlightMs: 100, graceMs: 400 };
const server = (fault: string) => ({ command: [process.execPath, fixture, '--fault', fault] });
/** One call of `work` without a progress token: silent until its answer, 4 s later. */
const silent: Plan = { serverRequests: 'answer', calls: [{ label: 'c1', tool: 'work', arguments: {}, at: { kind: 'start', ms: 0 } }] };

describe('slow is not stuck (black box, real time)', () => {
  it('a tool that takes 4 s (four times --hang-after) is clean: the campaign learns how long it takes from its progress and the calls that ended, and waits for it', async () => {
    const report = await fuzzProcess(server('slow'), { ...bounds, runs: 10, parallel: 1, rateRuns: 2 });
    expect(report.findings.filter((f) => f.owner === 'target').map((f) => `${f.invariant} ${f.determinism}`)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.waits.toolMs.work).toBeGreaterThan(3_000);
    expect(report.waits.toolSilenceMs.work).toBeGreaterThan(6_000);
  }, 60_000);

  // The defect of the pre-round tree (issue 32): at the default --hang-after (3 s) a correct tool that takes 4 s failed the
  // campaign with liveness.call-settles ("the tool never ends"): 8/10 runs before runPlan waited on progress, and still the
  // calls without a progress token after it. No bound is lowered here: the defaults, as a user runs them.
  it('at the default bounds, a correct tool that takes 4 s (longer than --hang-after 3 s) is clean', async () => {
    const report = await fuzzProcess(server('slow'), { runs: 10, parallel: 2, rateRuns: 2 });
    expect(report.findings.filter((f) => f.owner === 'target').map((f) => `${f.invariant} ${f.determinism}`)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.bounds.hangAfterMs).toBe(3_000);
    expect(report.waits.toolSilenceMs.work).toBeGreaterThan(6_000);
  }, 60_000);

  it('at the default bounds, a tool silent for 4 s (no progress ever) is clean with its duration stated (--tool-duration), and found without it (nothing shows it is slow, not stuck)', async () => {
    const stated = await fuzzProcess(server('slow-silent'), { runs: 8, parallel: 2, rateRuns: 2, shrink: false, toolMs: { work: 4_000 } });
    expect(stated.findings.filter((f) => f.owner === 'target').map((f) => `${f.invariant} ${f.determinism}`)).toEqual([]);
    expect(stated.passed).toBe(true);
    expect(stated.waits.statedToolMs).toEqual({ work: 4_000 });
    const unstated = await fuzzProcess(server('slow-silent'), { runs: 8, parallel: 2, rateRuns: 2, shrink: false });
    expect(unstated.findings.find((f) => f.invariant === 'liveness.call-settles' && f.confirmed)?.message).toMatch(/bound --hang-after 3000 ms/);
    expect(unstated.passed).toBe(false);
  }, 60_000);

  it('--tool-duration: a silent call of a tool stated to take 4 s is waited for; the same call with nothing stated is left at --hang-after and judged stuck', async () => {
    const endpoint = stdioEndpoint(server('slow'), { graceMs: 400 });
    const stated = await runPlanOn(endpoint, silent, { ...bounds, toolSilenceMs: { work: 9_000 } });
    expect(stated.findings.map((f) => f.invariant)).toEqual([]);
    const unstated = await runPlanOn(endpoint, silent, bounds);
    expect(unstated.findings.map((f) => f.invariant)).toContain('liveness.call-settles');
  }, 30_000);

  it('stuck is stuck: the same tool stopping after two steps is found, its bound twice what the tool has shown it takes', async () => {
    const report = await fuzzProcess(server('slow-stuck'), { ...bounds, runs: 6, parallel: 1, rateRuns: 2 });
    const stuck = report.findings.find((f) => f.invariant === 'liveness.call-settles' && f.confirmed);
    expect(stuck?.message).toMatch(/silent for \d+ ms/);
    expect(report.passed).toBe(false);
  }, 90_000);
});
