import { describe, expect, it } from 'vitest';
import { fuzzCaseAt, fuzzServer, loadTarget, planFuzz, runFuzzCase } from '../../src/fuzz/index.ts';
import { serverKinds } from './fixtures/conduct.ts';

/**
 * `fuzz` judges the tool callback's own conduct (`tool-end`, `abort-reached`), not the response
 * the SDK makes of it: a callback that returns after an abort reached it swallowed the abort, an
 * `isError` result included; one that rethrows did not; one the abort never reached did not.
 */
const SEED = 20261130;
const serverIds = (report: Awaited<ReturnType<typeof fuzzServer>>) => report.findings.filter((f) => f.owner === 'server').map((f) => f.invariant);

describe('fuzz: the tool callback\'s own conduct', () => {
  for (const [kind, make] of Object.entries(serverKinds)) {
    it(`${kind}: a catch-all returning isError after the abort is flagged / one that rethrows when the signal aborted is not (40 runs)`, async () => {
      const ng = await fuzzServer(make(false), { runs: 40, shrink: false, seed: SEED });
      const swallowed = ng.findings.find((f) => f.invariant === 'cancel.abort-swallowed');
      expect(swallowed?.owner).toBe('server');
      expect(swallowed?.explanation).toMatch(/the abort reached tool "crawl" \((its fetch rejected with the abort|signal\.throwIfAborted\(\) threw)\), and its callback caught it and returned (an isError result|a result) instead of throwing/);
      const fixed = await fuzzServer(make(true), { runs: 40, shrink: false, seed: SEED });
      expect(serverIds(fixed)).toEqual([]);
    });
  }

  it('the 1.x McpServer message says the callback returned an isError result (tool-end), not that it threw', async () => {
    const report = await fuzzServer(serverKinds['1.x McpServer.registerTool'](false), { runs: 40, shrink: false, seed: SEED });
    expect(report.findings.find((f) => f.invariant === 'cancel.abort-swallowed')?.explanation).toContain('returned an isError result instead of throwing');
  });

  it('examples/servers/stepsCheckSignal.ts: a tool that returns right after a last step the abort landed in is not blamed (case 1 shows it; 100 runs clean)', async () => {
    const target = await loadTarget('examples/servers/stepsCheckSignal.ts');
    const plan = await planFuzz(target);
    const { result, findings } = await runFuzzCase(target, fuzzCaseAt(plan, SEED, 1));
    const aborted = new Map<unknown, number>();
    for (const e of result.trace) if (e.kind === 'handler-abort') aborted.set(e.id, e.i);
    // The abort landed during the last step: the callback returned right after it, and nothing reached it.
    const late = result.trace.find((e) => e.kind === 'tool-end' && e.outcome === 'returned' && (aborted.get(e.id) ?? Infinity) < e.i);
    expect(late).toBeDefined();
    const id = late!.kind === 'tool-end' ? late!.id : undefined;
    const of = result.trace.filter((e) => 'id' in e && e.id === id && e.kind !== 'call-start' && e.kind !== 'timer').map((e) => (e.kind === 'handler-end' ? `${e.kind} ${e.outcome}` : e.kind));
    expect(of).toEqual(['handler-start', 'tool-start', 'handler-timer', 'handler-abort', 'tool-end', 'handler-end result']);
    expect(findings.map((f) => f.invariant)).not.toContain('cancel.abort-swallowed');
    const report = await fuzzServer('examples/servers/stepsCheckSignal.ts', { runs: 100, shrink: false, seed: SEED });
    expect(serverIds(report)).toEqual([]);
  });

  for (const file of ['faulty/neverEndsPending.ts', 'v2/faulty/neverEndsPending.ts']) {
    it(`examples/servers/${file}: a tool awaiting a promise kept in a list is flagged cancel.never-ends, with its tool, arguments and a minimal case`, async () => {
      const report = await fuzzServer(`examples/servers/${file}`, { runs: 30, seed: SEED });
      const never = report.findings.find((f) => f.invariant === 'cancel.never-ends');
      expect(never?.owner).toBe('server');
      expect(never?.call?.tool).toBe('enqueue');
      expect(never?.call?.arguments).toHaveProperty('job');
      expect(never?.explanation).toMatch(/^the handler of tool "enqueue" never ended after (the client cancelled|the call timed out|the connection closed)/);
      expect(never?.counterexample?.case.scenario.actions.filter((a) => a.kind === 'call')).toHaveLength(1);
    });
  }
});
