import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CACHE_DIR, prepareMutant } from '../../mutants/lib.ts';
import { shapeOf } from '../../src/campaign/cause.ts';
import { runChecked } from '../../src/check/runChecked.ts';
import { loadSdk } from '../../src/sdk/load.ts';
import type { Scenario } from '../../src/sim/index.ts';
import { validateScenario } from '../../src/sim/validate.ts';

/**
 * A client process restarts while the server still runs a handler of the old connection (it
 * ignores the abort of the close and sleeps on): the new `Client` numbers from 0 again, so its
 * first tool call has the old handler's id 1. The old handler ends first, then c2 times out.
 */
const restart: Scenario = {
  profile: 'memory',
  handlers: {
    old: { steps: [{ kind: 'sleep', ms: 1000 }], end: { kind: 'result' }, onAbort: 'ignore' },
    fresh: { steps: [], end: { kind: 'hang' }, onAbort: 'honour' },
    after: { steps: [], end: { kind: 'result' }, onAbort: 'honour' },
  },
  actions: [
    { kind: 'call', call: 'c1', method: 'tools/call', handler: 'old', options: {} },
    { kind: 'close', side: 'client' },
    { kind: 'reconnect', fresh: true },
    { kind: 'call', call: 'c2', method: 'tools/call', handler: 'fresh', options: { timeoutMs: 2000 } },
    { kind: 'call', call: 'c3', method: 'tools/call', handler: 'after', options: {} },
  ],
};

describe('reconnect with a fresh Client (memory)', () => {
  it('should number the new connection from 0 again, serve calls after it, and raise no finding on the installed SDK', async () => {
    const run = await runChecked(restart);
    const trace = run.result.trace;
    expect(trace.find((e) => e.kind === 'connect' && e.conn === 2)).toMatchObject({ fresh: true });
    const starts = trace.flatMap((e) => (e.kind === 'call-start' ? [[e.call, e.conn, e.id]] : []));
    expect(starts).toEqual([
      ['c1', 1, 1],
      ['c2', 2, 1],
      ['c3', 2, 2],
    ]);
    // The initialize of the new Client has id 0 again.
    const initIds = trace.flatMap((e) => (e.kind === 'send' && e.from === 'client' && (e.frame as { method?: string }).method === 'initialize' ? [(e.frame as { id: number }).id] : []));
    expect(initIds).toEqual([0, 0]);
    const settled = Object.fromEntries(trace.flatMap((e) => (e.kind === 'call-settle' ? [[e.call, e.outcome]] : [])));
    expect(settled).toEqual({ c1: 'rejected', c2: 'rejected', c3: 'resolved' });
    expect(run.findings).toEqual([]);
    // The replaced Client is probed too: closed, with nothing left in its maps.
    expect(run.endState.retiredClients?.map((r) => r.conn)).toEqual([1]);
    expect(shapeOf({ scenario: restart, tape: [], seed: 0 }).has('fresh-client')).toBe(true);
  });

  it('should be refused on the http profile', () => {
    expect(() => validateScenario({ ...restart, profile: 'http' })).toThrow(/fresh needs profile 'memory'/);
  });

  describe('the mutant abort-controller-deleted-by-id', () => {
    mkdirSync(join(CACHE_DIR, '..'), { recursive: true });
    const cache = mkdtempSync(join(CACHE_DIR, '..', 'mcp-sim-fresh-test-'));
    afterAll(() => rmSync(cache, { recursive: true, force: true }));

    it('should leave c2 un-aborted: the old handler’s end un-registered its controller', async () => {
      const copy = prepareMutant('abort-controller-deleted-by-id', cache);
      const sdk = await loadSdk({ kind: 'folder', path: copy.project });
      const run = await runChecked(restart, { sdk });
      expect(run.findings.map((f) => f.invariant).sort()).toEqual(['cancel.handler-aborted', 'liveness.handler-ends']);
    });
  });
});
