import { describe, expect, it } from 'vitest';
import { fuzzServer } from '../../src/fuzz/index.ts';

/**
 * The examples of examples/servers: each pitfall example is flagged with its invariant id, the
 * correct ones run clean. Budgets are small (a fixed seed, no shrinking) to keep `npm test`
 * cheap; `npm run fuzz:examples` checks the default budget and 5,000 clean runs.
 */
const faulty: readonly (readonly [file: string, invariant: string, runs: number])[] = [
  ['progressWithoutToken.ts', 'progress.token-requested', 60],
  ['progressNotIncreasing.ts', 'progress.increasing', 60],
  ['totalChanges.ts', 'progress.total-stable', 60],
  ['progressAfterResult.ts', 'progress.after-response', 60],
  ['fetchWithoutSignal.ts', 'cancel.reaches-work', 30],
  ['swallowedAbort.ts', 'cancel.abort-swallowed', 30],
  ['catchAllIsError.ts', 'cancel.abort-swallowed', 30],
  ['zombieWork.ts', 'cancel.zombie-work', 30],
  ['neverEnds.ts', 'liveness.quiescent', 5],
  ['neverEndsPending.ts', 'cancel.never-ends', 10],
];

const serverIds = (report: Awaited<ReturnType<typeof fuzzServer>>) => report.findings.filter((f) => f.owner === 'server').map((f) => f.invariant);

describe('fuzz: the example servers (seed 20261130)', () => {
  for (const [file, invariant, runs] of faulty) {
    it(`flags examples/servers/faulty/${file} with ${invariant} (${runs} runs)`, async () => {
      const report = await fuzzServer(`examples/servers/faulty/${file}`, { runs, shrink: false });
      expect(serverIds(report)).toContain(invariant);
      expect(report.passed).toBe(false);
      const finding = report.findings.find((f) => f.invariant === invariant)!;
      expect(finding.explanation).toMatch(/tool "(crawl|enqueue)"/);
    });
  }

  for (const file of ['crawler.ts', 'lowLevel.ts', 'stdioEntry.ts', 'crawlerRethrow.ts', 'stepsCheckSignal.ts']) {
    it(`runs examples/servers/${file} clean (100 runs)`, async () => {
      const report = await fuzzServer(`examples/servers/${file}`, { runs: 100 });
      expect(serverIds(report)).toEqual([]);
      expect(report.passed).toBe(true);
      expect(report.stateful).toBe(false);
    });
  }

  it('shrinks a finding to a minimal run that names the tool and its arguments', async () => {
    const report = await fuzzServer('examples/servers/faulty/zombieWork.ts', { runs: 30 });
    const zombie = report.findings.find((f) => f.invariant === 'cancel.zombie-work')!;
    expect(zombie.counterexample).toBeDefined();
    const actions = zombie.counterexample!.case.scenario.actions;
    expect(actions.filter((a) => a.kind === 'call')).toHaveLength(1);
    expect(zombie.call?.tool).toBe('crawl');
    expect(zombie.explanation).toMatch(/called fetch (once|\d+ times) after/);
  });
});
