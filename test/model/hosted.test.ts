import { describe, expect, it } from 'vitest';
import { factoryTargetOf } from '../../src/fuzz/index.ts';
import type { ServerFactory } from '../../src/fuzz/index.ts';
import { runChecked } from '../../src/check/index.ts';
import type { Scenario } from '../../src/sim/index.ts';
import { poller, reachesOut, twoFetches } from '../fuzz/fixtures/servers.ts';

/** One call of `tool`, cancelled by its caller after `tape` picks; the virtual network answers after 50 ms. */
function oneCall(tool: string, args: Record<string, string>, cancel: boolean): Scenario {
  return {
    profile: 'memory',
    server: 'hosted',
    handlers: {},
    actions: [
      { kind: 'call', call: 'c1', method: 'tools/call', handler: tool, arguments: args, options: { signal: 's1' } },
      ...(cancel ? [{ kind: 'abort' as const, signal: 's1' }] : []),
    ],
    network: { responses: [{ status: 200, body: '{}', latencyMs: 50 }] },
  };
}

async function ids(factory: ServerFactory, scenario: Scenario): Promise<string[]> {
  const target = await factoryTargetOf(factory);
  const { findings } = await runChecked(scenario, { sdk: target.sdk, server: target.source });
  return findings.map((f) => f.invariant);
}

describe('hosted servers: invariants of a user\'s handler', () => {
  it('cancel.reaches-work: fires on a fetch without the handler\'s signal that runs on after the cancel / silent on a fetch given the signal', async () => {
    expect(await ids(twoFetches(false), oneCall('fetch2', { url: 'https://a.example/' }, true))).toContain('cancel.reaches-work');
    const honest = await ids(twoFetches(true), oneCall('fetch2', { url: 'https://a.example/' }, true));
    expect(honest).not.toContain('cancel.reaches-work');
    expect(honest).not.toContain('cancel.zombie-work');
  });

  it('cancel.zombie-work (hosted timer): fires on a handler that sets its next timer after the cancel / silent on one that checks its signal first', async () => {
    // The cancel is the caller's second action: the natural order sends it once the handler slept its first step.
    const scenario = oneCall('poll', {}, true);
    expect(await ids(poller(false), scenario)).toContain('cancel.zombie-work');
    expect(await ids(poller(true), scenario)).not.toContain('cancel.zombie-work');
  });

  it('harness.offline: fires on a handler that spawns a process or writes a file / silent on one that only fetches', async () => {
    expect(await ids(reachesOut('exec'), oneCall('run', {}, false))).toContain('harness.offline');
    expect(await ids(reachesOut('write'), oneCall('run', {}, false))).toContain('harness.offline');
    expect(await ids(reachesOut('fetch'), oneCall('run', {}, false))).not.toContain('harness.offline');
  });
});
