import * as childProcess from 'node:child_process';
import * as timersPromises from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runChecked } from '../../src/check/index.ts';
import { factoryTargetOf } from '../../src/fuzz/index.ts';
import { globalsRestored, type Scenario } from '../../src/sim/index.ts';
import { napper, reachesOut } from '../fuzz/fixtures/servers.ts';

const call = (tool: string): Scenario => ({
  profile: 'memory',
  server: 'hosted',
  handlers: {},
  actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: tool, options: {} }],
});

describe('Hosted server: a user\'s server inside a run', () => {
  it('puts back fetch, the guarded built-ins, timers/promises and stdout after a run that used them', async () => {
    const before = { fetch: globalThis.fetch, execSync: childProcess.execSync, sleep: timersPromises.setTimeout, write: process.stdout.write };
    for (const how of ['exec', 'fetch'] as const) {
      const target = await factoryTargetOf(reachesOut(how));
      await runChecked(call('run'), { sdk: target.sdk, server: target.source });
    }
    expect(globalsRestored()).toEqual([]);
    expect(globalThis.fetch).toBe(before.fetch);
    expect(childProcess.execSync).toBe(before.execSync);
    expect(timersPromises.setTimeout).toBe(before.sleep);
    expect(process.stdout.write).toBe(before.write);
  });

  it('runs a sleep of node:timers/promises in virtual time: 5 s pass in the trace, not on the clock', async () => {
    const target = await factoryTargetOf(napper);
    const started = performance.now();
    const { result, findings } = await runChecked(call('nap'), { sdk: target.sdk, server: target.source });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.trace.find((e) => e.kind === 'call-settle')).toMatchObject({ outcome: 'resolved', t: 5_000 });
    expect(findings).toEqual([]);
  });

  it('gives the same trace hash for the same case twice (deterministic)', async () => {
    const target = await factoryTargetOf(reachesOut('fetch'));
    const a = await runChecked(call('run'), { sdk: target.sdk, server: target.source, tape: [0, 1, 0, 2], seed: 3 });
    const b = await runChecked(call('run'), { sdk: target.sdk, server: target.source, tape: [0, 1, 0, 2], seed: 3 });
    expect(a.result.hash).toBe(b.result.hash);
  });

  it('refuses a hosted scenario without a server, and a server for a scripted scenario', async () => {
    const target = await factoryTargetOf(reachesOut('fetch'));
    await expect(runChecked(call('run'), { sdk: target.sdk })).rejects.toThrow(/'hosted': pass the user's server as options.server/);
    await expect(runChecked({ ...call('run'), server: 'scripted', handlers: { run: { steps: [], end: { kind: 'result' }, onAbort: 'honour' } } }, { sdk: target.sdk, server: target.source })).rejects.toThrow(/must be 'hosted' when options.server is given/);
  });
});
