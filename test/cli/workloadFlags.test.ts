import { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addWorkloadOptions, workloadOf } from '../../src/cli/workloadFlags.ts';
import { KNOWN_PROFILES, resolveWorkload, workloadArgs, type ResolvedWorkload } from '../../src/options/index.ts';

/** Parses workload flags the way `check` and `replay` do. */
function parse(args: readonly string[]): ResolvedWorkload {
  const command = addWorkloadOptions(new Command('t').exitOverride());
  command.parse(args as string[], { from: 'user' });
  return resolveWorkload(workloadOf(command.opts()));
}

const workloadArb = fc.record({
  actionsMax: fc.integer({ min: 1, max: 64 }),
  stepsMax: fc.integer({ min: 0, max: 64 }),
  serverRequests: fc.boolean(),
  faults: fc.boolean(),
  profiles: fc.shuffledSubarray([...KNOWN_PROFILES], { minLength: 1 }),
});

describe('workload flags: the printer and the parser agree', () => {
  it('the default workload prints no flag, and no flag parses to the default workload', () => {
    expect(workloadArgs(resolveWorkload())).toEqual([]);
    expect(parse([])).toEqual(resolveWorkload());
  });

  it('parse(workloadArgs(w)) is w, for every workload', () => {
    fc.assert(
      fc.property(workloadArb, (input) => {
        const w = resolveWorkload(input);
        expect(parse(workloadArgs(w))).toEqual(w);
      }),
      { seed: 1, numRuns: 300 },
    );
  });

  it('prints only what differs, in a fixed order', () => {
    expect(workloadArgs(resolveWorkload({ faults: false, profiles: ['http'], stepsMax: 1 }))).toEqual(['--profiles', 'http', '--steps-max', '1', '--no-faults']);
  });
});
