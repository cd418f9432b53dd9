import { describe, expect, it } from 'vitest';
import { fuzzServer } from '../../src/fuzz/index.ts';
import { DEFAULT_FUZZ_RUNS } from '../../src/options/defaults.ts';

/**
 * The seed article's 30 s tools (examples/servers/slow/), in process and in virtual time, at the
 * default budget. From outside the TypeScript one with its cancel not wired cannot be told from
 * the correct one: the SDK (1.26.0 on) drops an aborted request's progress and answer, so the
 * wire is clean (`npm run fuzz:slow` shows Python's is found there). In process the handler's
 * own steps after its abort are seen: `cancel.zombie-work`. 30 s of virtual time cost nothing, so
 * the correct tool is clean over the whole default budget.
 */
const serverIds = (report: Awaited<ReturnType<typeof fuzzServer>>) => report.findings.filter((f) => f.owner === 'server').map((f) => f.invariant);

describe('the 30 s tools in process (default budget)', () => {
  it(`runs examples/servers/slow/correct.ts clean over ${DEFAULT_FUZZ_RUNS} runs`, async () => {
    const report = await fuzzServer('examples/servers/slow/correct.ts', {});
    expect(report.runsDone).toBe(DEFAULT_FUZZ_RUNS);
    expect(serverIds(report)).toEqual([]);
    expect(report.passed).toBe(true);
  });

  it('finds the cancel that never reaches the 30 s work (cancel.zombie-work)', async () => {
    const report = await fuzzServer('examples/servers/slow/cancelNotWired.ts', { shrink: false });
    expect(serverIds(report)).toContain('cancel.zombie-work');
    expect(report.passed).toBe(false);
  });

  it('finds the tool that never ends', async () => {
    const report = await fuzzServer('examples/servers/slow/neverEnds.ts', { shrink: false });
    expect(report.passed).toBe(false);
    expect(serverIds(report).some((id) => id.startsWith('liveness.') || id === 'cancel.never-ends')).toBe(true);
  });
});
