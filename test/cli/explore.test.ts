import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { parse, type TestSuites } from 'junit2json';
import { afterAll, describe, expect, it } from 'vitest';
import { explorePreset, explorePresets } from '../../src/explore/index.ts';
import { runMain } from './runMain.ts';

const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as object;
type AjvClass = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as { default?: AjvClass }).default ?? Ajv2020Module) as unknown as AjvClass;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-explore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ExploreDoc {
  kind: string;
  complete: boolean;
  explored: { schedules: number; unexplored: number };
  findings: { invariant: string; replay: { file: string; command: string } }[];
  verdict: { result: string; exitCode: number };
}

describe('mcp-sim explore', () => {
  it('--list: one preset a line, name first', async () => {
    const run = await runMain(['explore', '--list']);
    expect(run.code).toBe(0);
    expect(run.lines.map((l) => l.split(/\s+/)[0])).toEqual(explorePresets.map((p) => p.name));
  });

  it('no scenario, two scenarios, an unknown preset, a bad bound: one line and exit 2', async () => {
    const empty = (flag: string) => ['--preset', 'request-cancel-response', flag, ''];
    for (const args of [[], ['--preset', 'request-cancel-response', '--scenario', 'x.json'], ['--preset', 'nope'], ['--preset', 'request-cancel-response', '--depth', '0'], empty('--junit'), empty('--report')]) {
      const run = await runMain(['explore', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('--preset: the report, a JSON report that validates, and replay commands that reproduce their finding', async () => {
    const json = join(dir, 'explore.json');
    const run = await runMain(['explore', '--preset', 'request-cancel-response', '--out', join(dir, 'repro'), '--json', json]);
    expect(run.stdout).toMatch(/^schedules explored +\d+ +\(pruned: \d+/m);
    expect(run.stdout).toMatch(/^distinct end states +\d+$/m);
    expect(run.stdout).toMatch(/^exhaustive within this scope: \d+ cause\(s\) found$/m);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as ExploreDoc;
    expect(validate(doc) ? 'valid' : JSON.stringify(validate.errors?.slice(0, 3))).toBe('valid');
    expect(doc).toMatchObject({ kind: 'explore', complete: true, verdict: { exitCode: run.code } });
    expect(doc.findings.length).toBeGreaterThan(0);
    for (const f of doc.findings) {
      expect(run.stdout).toContain(f.replay.command);
      const replay = await runMain(f.replay.command.replace(/^npx mcp-sim /, '').split(' '));
      expect(replay.lines.at(-1)).toBe(`reproduced: ${f.invariant}`);
    }
    // A replay file is a scenario file too: explore its scenario.
    const again = await runMain(['explore', '--scenario', doc.findings[0]!.replay.file, '--out', join(dir, 'repro')]);
    expect(again.stdout).toMatch(/^exhaustive within this scope: \d+ cause\(s\) found$/m);
  });

  it('--scenario FILE: a scenario with an injected fault fails with the race it finds (exit 1)', async () => {
    const file = join(dir, 'faulty.json');
    const scenario = { ...explorePreset('request-cancel-response')!.scenario, adapterFaults: [{ side: 'client', fault: 'close-on-late-response' }] };
    writeFileSync(file, JSON.stringify(scenario));
    const json = join(dir, 'faulty-report.json');
    const run = await runMain(['explore', '--scenario', file, '--out', join(dir, 'repro'), '--json', json]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as ExploreDoc;
    expect(doc.findings.map((f) => f.invariant)).toContain('cancel.race-graceful');
    expect(run.code).toBe(doc.verdict.exitCode);
    expect(run.lines.at(-1)).toMatch(run.code === 1 ? /^FAIL: / : /^PASS: /);
  });

  it('--junit and --report: consistent with the verdict and exit code; every replay command the Markdown shows reproduces its finding', async () => {
    const junitFile = join(dir, 'nested', 'explore.xml');
    const markdownFile = join(dir, 'explore.md');
    const run = await runMain(['explore', '--preset', 'server-request-cancel', '--out', join(dir, 'repro'), '--junit', junitFile, '--report', markdownFile]);
    expect(run.code).toBe(1);
    const suite = ((await parse(readFileSync(junitFile, 'utf8'))) as TestSuites).testsuite![0]!;
    expect(suite.failures).toBe(1);
    expect(suite.testcase!.find((c) => c.name === 'cancel.no-response-after')?.failure).toBeDefined();
    const md = readFileSync(markdownFile, 'utf8');
    expect(md.split('\n')[0]).toBe('## mcp-sim explore: ❌ FAIL');
    const commands = md.split('\n').filter((l) => l.startsWith('npx mcp-sim replay '));
    expect(commands.length).toBe(md.match(/^### /gm)!.length);
    for (const command of commands) {
      expect(run.stdout).toContain(command);
      const replay = await runMain(command.replace(/^npx mcp-sim /, '').split(' '));
      // The replay file is named after the finding's invariant: explore-<preset>-<k>-<invariant>.json.
      expect(replay.lines.at(-1)).toBe(`reproduced: ${/-\d+-([a-z.-]+)\.json$/.exec(command)![1]}`);
    }
  });

  it('a bound that cuts the enumeration says what was not explored', async () => {
    const cut = await runMain(['explore', '--preset', 'request-cancel-response', '--no-reduction', '--runs-max', '5', '--out', join(dir, 'repro')]);
    expect(cut.stdout).toMatch(/^NOT exhaustive: --runs-max 5 reached with \d+ branch\(es\) of the schedule tree not explored$/m);
    expect(cut.stdout).not.toMatch(/exhaustive within this scope/);
    const shallow = await runMain(['explore', '--preset', 'request-cancel-response', '--depth', '3', '--out', join(dir, 'repro')]);
    expect(shallow.stdout).toMatch(/^NOT exhaustive: \d+ schedule\(s\) reached the depth bound \(--depth 3\)/m);
  });

  it('every preset command docs/explore.md shows runs, with the exit code its verdict line says', async () => {
    const doc = readFileSync(new URL('../../docs/explore.md', import.meta.url), 'utf8');
    const commands = [...doc.matchAll(/^npx mcp-sim (explore (?:--list|--preset [^#\n]*?))\s*(?:#.*)?$/gm)].map((m) => m[1]!.trim().split(/\s+/));
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const args of commands) {
      const run = await runMain([...args, '--out', join(dir, 'repro')]);
      if (args.includes('--list')) expect(run.code).toBe(0);
      else expect(run.code).toBe(run.lines.at(-1)!.startsWith('PASS') ? 0 : 1);
    }
    // The replay commands it shows, of files those commands wrote (into --out here, not .mcp-sim/repro).
    const replays = [...doc.matchAll(/^npx mcp-sim replay \.mcp-sim\/repro\/(explore-[^ ]+?-([a-z.-]+)\.json)( .*)?$/gm)];
    expect(replays.length).toBeGreaterThanOrEqual(1);
    for (const [, file, invariant, rest] of replays) {
      const replay = await runMain(['replay', join(dir, 'repro', file!), ...(rest ?? '').trim().split(/\s+/).filter(Boolean)]);
      expect(replay.lines.at(-1)).toBe(`reproduced: ${invariant}`);
    }
  });
});
