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
    // What it tests (not the reader's server), and the command that checks theirs, before the options.
    expect(run.lines[1]).toBe(`  tests         the installed TypeScript SDK, ${installedSdk().name}@${installedSdk().version}: its own client and server in process, in virtual time (not your server)`);
    expect(run.lines[2]).toMatch(/^ {2}your server {3}mcp-sim check -- <your server command> \(any language, over stdio/);
    expect(run.lines.slice(1, 12).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual([
      'tests',
      'your server',
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
    const args = ['check', '--seed', '3', '--runs', '5', '--no-shrink', '--profiles', 'http', '--all-findings', '--out', mkdtempSync(join(tmpdir(), 'mcp-sim-check-'))];
    const a = await runMain(args);
    const b = await runMain([...args, '--self-check']);
    const findings = (r: typeof a) => r.lines.filter((l) => /^(✗|!|·) /.test(l));
    expect(findings(b)).toEqual(findings(a));
    expect(b.stdout).not.toContain('harness.deterministic: cases');
    expect(b.code).toBe(a.code);
  });

  it('prints a finding the baseline explains in one line (invariant, runs, replay file); --all-findings prints it in full; the JSON holds it either way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-check-'));
    const campaign = ['check', '--seed', '20261130', '--runs', '6', '--profiles', 'http', '--actions-max', '3', '--no-faults'];
    const brief = await runMain([...campaign, '--json', join(dir, 'brief.json'), '--out', join(dir, 'brief')]);
    const full = await runMain([...campaign, '--all-findings', '--json', join(dir, 'full.json'), '--out', join(dir, 'full')]);
    type Entry = { invariant: string; cause: string; runs: number; replay?: unknown };
    const entries = (file: string) => {
      const r = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<'violations' | 'warnings' | 'notes', Entry[]>;
      return [...r.violations, ...r.warnings, ...r.notes];
    };
    const known = entries('brief.json').filter((e) => e.cause === 'known');
    expect(known.length).toBeGreaterThan(0);
    // The JSON report is the same whatever the text prints (but the replay files' folder, --out).
    const but = (file: string) => entries(file).map((e) => ({ ...e, replay: undefined }));
    expect(but('brief.json')).toEqual(but('full.json'));
    expect(brief.lines).toContain(
      `known findings: ${known.length} invariant(s) broken here are explained by the baseline of ${installedSdk().name}@${installedSdk().version} (its own known bugs, not failing); one line each, --all-findings prints each with its counterexample:`,
    );
    for (const e of known) {
      const line = brief.lines.filter((l) => new RegExp(`^ {2}(✗ VIOLATION|! WARNING {3}|· NOTE {6}) ${e.invariant.replace('.', '\\.')} `).test(l));
      expect(line, e.invariant).toHaveLength(1);
      expect(line[0]).toContain(` in ${e.runs} of 6 runs; replay: npx mcp-sim replay ${join(dir, 'brief', `${e.invariant}.json`)}`);
      expect(full.stdout).toMatch(new RegExp(`^(✗ VIOLATION|! WARNING  |· NOTE     ) ${e.invariant.replace('.', '\\.')} .*\\(known cause: in the baseline\\)$`, 'm'));
    }
    expect(brief.stdout).not.toContain('(known cause: in the baseline)');
    expect(brief.stdout).not.toContain('replay the original case');
    expect(full.stdout).not.toContain('known findings:');
    expect(brief.lines.at(-1)).toBe(full.lines.at(-1));
    expect(brief.code).toBe(full.code);
  });

  it('writes a replay file per shrunk counterexample that records the case, its invariant and the original campaign case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-check-'));
    const run = await runMain(['check', '--seed', '20261130', '--runs', '6', '--profiles', 'http', '--actions-max', '3', '--no-faults', '--all-findings', '--out', dir]);
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
