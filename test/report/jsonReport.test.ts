import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../cli/runMain.ts';
import { v2Folder } from '../modern/helpers.ts';

const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as object;
// ajv is CommonJS: its default export arrives as the module or as its `default`, by loader.
type AjvClass = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as { default?: AjvClass }).default ?? Ajv2020Module) as unknown as AjvClass;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const valid = (doc: unknown) => {
  const ok = validate(doc);
  return ok ? 'valid' : JSON.stringify(validate.errors?.slice(0, 5), null, 1);
};

describe('check --json: the report validates against schemas/report.schema.json', () => {
  it('a campaign: options, verdict and exit code, findings by severity with replay commands and minimal cases', async () => {
    const file = join(dir, 'campaign.json');
    const run = await runMain(['check', '--runs', '40', '--json', file]);
    const doc = read(file);
    expect(valid(doc)).toBe('valid');
    expect(doc).toMatchObject({ schemaVersion: 1, kind: 'campaign', verdict: { result: run.code === 0 ? 'pass' : 'fail', exitCode: run.code } });
    const violations = doc['violations'] as { replay: { command: string }; minimalCase?: { mermaid: string } }[];
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.minimalCase?.mermaid.startsWith('sequenceDiagram'))).toBe(true);
    // The replay command a report carries runs, and says the finding reproduced.
    const replay = await runMain(violations[0]!.replay.command.replace(/^npx mcp-sim /, '').split(' '));
    expect(replay.lines.at(-1)).toMatch(/^reproduced: /);
  });

  it('--json - writes the report to stdout and nothing else; the printed report goes to stderr', async () => {
    const run = await runMain(['check', '--runs', '20', '--no-shrink', '--json', '-']);
    const doc = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(valid(doc)).toBe('valid');
    expect(run.stderr).toMatch(/^mcp-sim check  seed=20261130/);
    expect(run.stderr).toMatch(/PASS: no violation beyond the baseline/);
  });

  it('replay --json: the replayed case, its verdict and exit code, its findings, trace and diagram', async () => {
    const file = join(dir, 'replay.json');
    const run = await runMain(['replay', '--baseline', 'cancel.not-initialize memory reordered', '--json', file]);
    const doc = read(file);
    expect(valid(doc)).toBe('valid');
    expect(doc).toMatchObject({ kind: 'replay', expect: 'cancel.not-initialize', verdict: { result: 'reproduced', exitCode: run.code, deterministic: true } });
    expect((doc['findings'] as { invariant: string }[]).map((f) => f.invariant)).toContain('cancel.not-initialize');
  });

  it('rogue --json and baseline --json share the format (kinds rogue and baseline)', async () => {
    const rogue = join(dir, 'rogue.json');
    const r = await runMain(['rogue', '--target', 'client', '--filter', 'progress-unknown-token', '--json', rogue]);
    const doc = read(rogue);
    expect(valid(doc)).toBe('valid');
    expect(doc).toMatchObject({ kind: 'rogue', options: { target: 'client', filter: 'progress-unknown-token' }, verdict: { exitCode: r.code } });
    expect((doc['rows'] as unknown[]).length).toBeGreaterThan(0);
    const baseline = join(dir, 'baseline.json');
    await runMain(['baseline', '--runs', '30', '--json', baseline], { MCP_SIM_RUNS: '5' });
    const b = read(baseline);
    expect(valid(b)).toBe('valid');
    expect(b).toMatchObject({ kind: 'baseline', options: { runs: 30, update: false } });
    // The baseline of another rule set, on the project's 2.x pair: options name it, and no property cases.
    const specBaseline = join(dir, 'baseline-2026.json');
    await runMain(['baseline', '--spec', '2026-07-28', '--sdk', v2Folder, '--runs', '3', '--json', specBaseline]);
    const s = read(specBaseline);
    expect(valid(s)).toBe('valid');
    expect(s).toMatchObject({ kind: 'baseline', options: { spec: '2026-07-28', profiles: ['http-2026'] } });
    expect(s['options']).not.toHaveProperty('property');
    // Three campaigns (a baseline's property suite among them): about a minute alone, more on a loaded machine.
  }, 300_000);

  it('a shard and a sweep validate too; a document without schemaVersion does not', async () => {
    const shard = join(dir, 'shard.json');
    await runMain(['check', '--runs', '20', '--shard', '1/2', '--no-shrink', '--json', shard]);
    expect(valid(read(shard))).toBe('valid');
    const sweep = join(dir, 'sweep.json');
    await runMain(['check', '--seeds', '1..2', '--runs', '10', '--no-shrink', '--json', sweep]);
    const doc = read(sweep);
    expect(valid(doc)).toBe('valid');
    expect(doc).toMatchObject({ kind: 'sweep', schemaVersion: 1 });
    const { schemaVersion: _dropped, ...old } = read(shard);
    expect(valid(old)).not.toBe('valid');
  });
});
