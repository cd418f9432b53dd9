import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLAY_FILE_SCHEMA_VERSION } from '../../src/campaign/replayFile.ts';
import { installedSdk } from '../../src/sdk/load.ts';
import { TOOL } from '../../src/util/toolVersion.ts';
import { runMain } from './runMain.ts';

describe('mcp-sim check (tiny budget)', () => {
  it('prints the seed first, then the resolved options, and ends PASS or FAIL with the matching exit code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-check-'));
    const json = join(dir, 'report.json');
    const run = await runMain(['check', '--seed', '7', '--runs', '4', '--profiles', 'memory', '--no-shrink', '--json', json, '--out', join(dir, 'repro')]);
    expect(run.lines[0]).toBe('mcp-sim check  seed=7');
    expect(run.lines.slice(1, 10).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual([
      'sdk',
      'runs',
      'profiles',
      'actions max',
      'steps max',
      'server reqs',
      'faults',
      'shrink',
      'self-check',
    ]);
    expect(run.lines).toContain('  runs          4');
    expect(run.lines).toContain('  profiles      memory');
    expect(run.lines).toContain('  shrink        false');
    const last = run.lines.at(-1)!;
    expect(last).toMatch(/^(PASS|FAIL): .*; seed=7$/);
    expect(run.code).toBe(last.startsWith('PASS') ? 0 : 1);
    // Progress goes to stderr, the report to stdout.
    expect(run.stderr).toContain('runs: 4/4');
    expect(run.stdout).toMatch(/^4 runs in [\d.]+ s/m);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report).toMatchObject({ seed: 7, runs: 4, workload: { profiles: ['memory'], actionsMax: 6, stepsMax: 4, serverRequests: true, faults: true } });
    expect(report.sdk.name).toBe('@modelcontextprotocol/sdk');
  });

  it('is deterministic end to end: the same campaign again, with --self-check, gives the same findings and verdict', async () => {
    const args = ['check', '--seed', '3', '--runs', '5', '--no-shrink', '--profiles', 'http', '--out', mkdtempSync(join(tmpdir(), 'mcp-sim-check-'))];
    const a = await runMain(args);
    const b = await runMain([...args, '--self-check']);
    const findings = (r: typeof a) => r.lines.filter((l) => /^(✗|!|·) /.test(l));
    expect(findings(b)).toEqual(findings(a));
    expect(b.stdout).not.toContain('harness.deterministic: cases');
    expect(b.code).toBe(a.code);
  });

  it('writes a replay file per shrunk counterexample that records the case, its invariant and the original campaign case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-check-'));
    const run = await runMain(['check', '--seed', '20261130', '--runs', '6', '--profiles', 'http', '--actions-max', '3', '--no-faults', '--out', dir]);
    const files = readdirSync(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const file = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      expect(Object.keys(file)).toEqual(['schemaVersion', 'madeWith', 'target', 'clock', 'invariant', 'case', 'origin']);
      expect(file.target).toEqual({ kind: 'sdk' });
      expect(file.clock).toBe('virtual');
      expect(Object.keys(file.case)).toEqual(['scenario', 'tape', 'seed']);
      expect(file.schemaVersion).toBe(REPLAY_FILE_SCHEMA_VERSION);
      expect(file.madeWith).toEqual({ tool: { name: TOOL.name, version: TOOL.version }, sdk: installedSdk() });
      expect(name).toBe(`${file.invariant}.json`);
      expect(file.origin).toMatchObject({
        campaignSeed: 20261130,
        workload: { profiles: ['http'], actionsMax: 3, stepsMax: 4, serverRequests: true, faults: false },
      });
      expect(file.origin.command).toBe(
        `npx mcp-sim replay --seed 20261130 --case ${file.origin.caseIndex} --profiles http --actions-max 3 --no-faults ` +
          `--expect ${file.invariant} --made-with ${TOOL.name}@${TOOL.version},${installedSdk().name}@${installedSdk().version}`,
      );
      expect(run.stdout).toContain(`replay: npx mcp-sim replay ${join(dir, name)}`);
      expect(run.stdout).toContain(`replay the original case: ${file.origin.command}`);
    }
    // `replay FILE` runs the shrunk case, shows its invariant, and says where it came from.
    const file = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8'));
    const replay = await runMain(['replay', join(dir, files[0]!)]);
    expect(replay.lines[1]).toBe(`  tape ${JSON.stringify(file.case.tape)}`);
    expect(replay.lines[3]).toBe(`  shrunk from case ${file.origin.caseIndex} of campaign seed 20261130: ${file.origin.command}`);
    expect(replay.lines.filter((l) => /^(✗|!|·) /.test(l)).some((l) => l.includes(` ${file.invariant} (`))).toBe(true);
    expect(replay.lines.at(-1)).toBe(`reproduced: ${file.invariant}`);
  });
});
