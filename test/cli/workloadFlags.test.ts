import { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wholeNumberArg } from '../../src/cli/flagParsers.ts';
import { addReplayCoordinateOptions, addWorkloadOptions, workloadOf } from '../../src/cli/workloadFlags.ts';
import { invariants } from '../../src/model/invariants.ts';
import { KNOWN_PROFILES, resolveReplayOptions, resolveWorkload, workloadArgs, type ResolvedWorkload } from '../../src/options/index.ts';
import { parseMadeWith, replayCaseArgs, replayCaseCommand } from '../../src/options/replayCaseCommand.ts';

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

describe('replay coordinate flags (--expect, --made-with): the printer and the parser agree', () => {
  /** Parses `replay`'s case flags the way `mcp-sim replay` does. */
  function parseReplay(args: readonly string[]) {
    const command = addReplayCoordinateOptions(
      addWorkloadOptions(new Command('replay').exitOverride().option('--seed <n>', '', wholeNumberArg('--seed')).option('--case <n>', '', wholeNumberArg('--case'))),
    );
    command.parse(args as string[], { from: 'user' });
    const o = command.opts();
    return resolveReplayOptions({ seed: o.seed, caseIndex: o.case, expect: o.expect, madeWith: o.madeWith, workload: workloadOf(o) });
  }
  const version = fc.tuple(fc.nat(99), fc.nat(99), fc.nat(99), fc.option(fc.constantFrom('-rc.1', '-beta'), { nil: '' })).map(([a, b, c, pre]) => `${a}.${b}.${c}${pre}`);
  const packageName = fc.constantFrom('mcp-sim', '@modelcontextprotocol/sdk', 'sdk-1.20.0', '@scope/some.pkg');

  it('every printed case parses back to its seed, index, workload, invariant and versions', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(10_000), workloadArb, fc.constantFrom(...invariants.keys()), packageName, version, packageName, version, (seed, index, input, invariant, tool, tv, sdk, sv) => {
        const workload = resolveWorkload(input);
        const madeWith = { tool: { name: tool, version: tv }, sdk: { name: sdk, version: sv } };
        const args = replayCaseArgs(seed, index, workload, { expect: invariant, madeWith });
        expect(replayCaseCommand(seed, index, workload, { expect: invariant, madeWith })).toBe(`npx mcp-sim ${args.join(' ')}`);
        expect(parseReplay(args.slice(1))).toEqual({ source: { kind: 'case', seed, caseIndex: index, workload }, expect: invariant, madeWith, full: false, mermaid: false, selfCheck: false, emitExpect: 'absent' });
      }),
      { seed: 2, numRuns: 200 },
    );
  });

  it('--made-with reads tool@version,sdk@version and rejects anything else with how to write it', () => {
    expect(parseMadeWith('mcp-sim@0.1.0,@modelcontextprotocol/sdk@1.32.2')).toEqual({
      tool: { name: 'mcp-sim', version: '0.1.0' },
      sdk: { name: '@modelcontextprotocol/sdk', version: '1.32.2' },
    });
    for (const bad of ['', 'mcp-sim@0.1.0', 'mcp-sim,@modelcontextprotocol/sdk', 'a@1,b@2,c@3', '@modelcontextprotocol/sdk,mcp-sim@1']) {
      expect(() => parseMadeWith(bad)).toThrow(/--made-with \(madeWith\) = .*: must name the mcp-sim and SDK versions as <tool>@<version>,<sdk package>@<version>\. Fix: /);
    }
    expect(() => parseReplay(['--seed', '1', '--case', '2', '--expect', 'no.such-invariant'])).toThrow(/--expect \(expect\) = "no.such-invariant": must be an invariant id of the catalogue/);
  });
});
