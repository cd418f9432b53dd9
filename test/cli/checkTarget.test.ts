import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from './runMain.ts';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-check-target-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('check testbed:<language>: bad input is one line and exit 2 (no test bed needed)', () => {
  it.each([
    [['testbed:cobol'], /^mcp-sim check: testbed:cobol: no test bed for "cobol": one of typescript, python, go, rust, java\.$/],
    [['testbed:python', '--transport', 'http-foo'], /^mcp-sim check testbed:python: unknown --transport "http-foo": one of stdio, http-stateful-sse, http-stateful-json, http-stateless-sse, http-stateless-json\.$/],
    [['client:python', '--transport', 'http-stateful-sse'], /^mcp-sim check client:python: unknown --transport "http-stateful-sse": stdio or http/],
    [['client:python', '--scenario', 'abort', '--seed', '3', '--dry-run'], /^mcp-sim check client:python: --seed does not apply with --scenario: the fixed scenarios are each one minimal question.*leave --scenario out for the generated cases/],
    [['client:python', '--scenario', 'all', '--no-shrink', '--dry-run'], /^mcp-sim check client:python: --no-shrink does not apply with --scenario/],
  ])('check %j', async (args, line) => {
    const run = await runMain(['check', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(line)]);
  });

  it('check client:<language> runs 24 generated cases by default (--seed and --shrink apply), one pass over the fixed scenarios with --scenario', async () => {
    const options = async (...args: string[]) => {
      const run = await runMain(['check', 'client:python', ...args, '--dry-run']);
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { options: { runs: number; seed: number; shrink: boolean; scenarios?: string[] } }).options;
    };
    expect(await options('--seed', '5')).toMatchObject({ runs: 24, seed: 5, shrink: true });
    expect(await options('--scenario', 'abort,close')).toMatchObject({ runs: 4, scenarios: ['abort', 'close'] });
    expect(await options('--scenario', 'all', '--transport', 'stdio')).toMatchObject({ runs: 16 });
  });

  it('the old spelling (check --target cobol) says its new one once, then the same one-line error', async () => {
    const run = await runMain(['check', '--target', 'cobol']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual(['mcp-sim: "check --target cobol" is now "check testbed:cobol" (the old spelling works for this release)', expect.stringMatching(/no test bed for "cobol"/)]);
  });

  it.each([
    [['matrix', 'sdk'], /^mcp-sim matrix sdk: give the releases: --releases /],
    [['matrix', 'testbed:go@v1.8.0'], /^mcp-sim matrix testbed:go@v1\.8\.0: name the releases with --releases, not @ in the target\.$/],
    [['matrix', 'sdk', '--releases', '1.26.0', '--transport', 'stdio'], /^mcp-sim matrix sdk: --transport does not apply to it/],
    [['check', '--client'], /^mcp-sim check: --client names part of a target/],
    [['matrix', 'testbed:go', '--json', 'm.json'], /^mcp-sim matrix testbed:<language>: --json does not apply to it/],
    [['bisect', 'testbed:go', '--invariant', 'cancel.no-response-after', '--profiles', 'memory'], /^mcp-sim bisect testbed:<language>: --profiles does not apply to it/],
    [['bisect', 'testbed:go', '--invariant', 'cancel.nope'], /^mcp-sim bisect testbed:go: --invariant cancel\.nope: no such invariant/],
  ])('a usage error an action throws is said, not only its exit 2: %j', async (args, line) => {
    const run = await runMain(args);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(line)]);
  });

  it("the old fuzz <module> --case K names the seed its new spelling needs (replay <module> --seed S --case K)", async () => {
    const run = await runMain(['fuzz', 'examples/servers/crawler.ts', '--case', '0']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('"fuzz examples/servers/crawler.ts --case 0" is now "replay examples/servers/crawler.ts --seed 20261130 --case 0"');
  });

  it('a file that is not a replay file is refused in one line (replay FILE, and the old check --target L --replay FILE)', async () => {
    const file = join(scratch, 'other.json');
    writeFileSync(file, JSON.stringify({ kind: 'something-else' }));
    const run = await runMain(['replay', file]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(/has no "target" and "case" \(nor a "scenario" and "tape"\); it should be a file written by mcp-sim check$/);
    const old = await runMain(['check', '--target', 'go', '--replay', file]);
    expect(old.code).toBe(2);
    expect(old.stderr.trim().split('\n').at(-1)).toMatch(/has no "target" and "case"/);
  });
});
