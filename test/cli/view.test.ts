import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Ajv2020Module from 'ajv/dist/2020.js';
import { extractReport } from '../../src/report/html/viewerHtml.ts';
import { runMain } from './runMain.ts';

const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as object;
// ajv is CommonJS: its default export arrives as the module or as its `default`, by loader.
type AjvClass = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as { default?: AjvClass }).default ?? Ajv2020Module) as unknown as AjvClass;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-view-'));
const entry = 'cancel.late-response-silent memory reordered';
const htmlLine = /^html: (\S+) \((\d+) findings?, (\d+) KB, made in \d+ ms/m;

describe('mcp-sim replay --html and view', () => {
  it('replay --html FILE: writes the page of the replay report, and says so with its size', async () => {
    const out = join(dir, 'replay.html');
    const run = await runMain(['replay', '--baseline', entry, '--html', out]);
    expect(run.stdout).toMatch(/^reproduced: cancel\.late-response-silent$/m);
    expect(run.stdout).toMatch(htmlLine);
    const report = extractReport(readFileSync(out, 'utf8')) as { kind: string; viewer: { findings: { invariant: string }[] } };
    expect(report.kind).toBe('replay');
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.viewer.findings.map((f) => f.invariant)).toEqual(['cancel.late-response-silent']);
  });

  it('view REPORT.json: the same page bytes each time, next to the report by default; --extract gives the report back', async () => {
    const json = join(dir, 'r.json');
    expect((await runMain(['replay', '--baseline', entry, '--json', json])).code).toBe(0);
    const a = await runMain(['view', json]);
    expect(a.code).toBe(0);
    const first = readFileSync(join(dir, 'r.html'), 'utf8');
    expect((await runMain(['view', json, '-o', join(dir, 'again.html')])).code).toBe(0);
    expect(readFileSync(join(dir, 'again.html'), 'utf8')).toBe(first);
    const extracted = await runMain(['view', '--extract', join(dir, 'r.html')]);
    const { viewer, ...rest } = JSON.parse(extracted.stdout) as Record<string, unknown>;
    expect(viewer).toBeDefined();
    expect(rest).toEqual(JSON.parse(readFileSync(json, 'utf8')));
  });

  it('view: a file that is not JSON, and --html with --json -, are one-line errors with exit 2', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, 'not json');
    const run = await runMain(['view', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcp-sim: view: .*bad\.json is not JSON .*; give a report written with --json FILE or a replay file/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    const both = await runMain(['replay', '--baseline', entry, '--html', join(dir, 'x.html'), '--json', '-']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--html reads the JSON report: give --json a file/);
  });

  it('check --html: every finding of the campaign with its case and replay commands, the coverage of race pairs; the same seed gives the same bytes', async () => {
    const out = join(dir, 'check.html');
    const run = await runMain(['check', '--runs', '20', '--no-shrink', '--workers', '1', '--out', join(dir, 'repro'), '--html', out]);
    expect(run.stdout).toMatch(htmlLine);
    type Page = { violations: unknown[]; warnings: unknown[]; notes: unknown[]; viewer: { findings: { runs: { shrunk: number }; commands: { command: string }[]; absent: string[] }[]; runs: unknown[]; coverage: { races: Record<string, number> } } };
    const report = extractReport(readFileSync(out, 'utf8')) as Page;
    expect(report.viewer.findings.length).toBe(report.violations.length + report.warnings.length + report.notes.length);
    for (const f of report.viewer.findings) {
      expect(f.commands[0]!.command).toMatch(/^npx mcp-sim replay --seed \d+ --case \d+ /);
      expect(f.absent.join(' ')).toMatch(/--no-shrink/);
    }
    expect(Object.keys(report.viewer.coverage.races).length).toBeGreaterThan(3);
    // The same seed, the same bytes: wall-clock fields are nulled in the page's copy.
    const again = join(dir, 'check-again.html');
    await runMain(['check', '--runs', '20', '--no-shrink', '--workers', '1', '--out', join(dir, 'repro'), '--html', again]);
    expect(readFileSync(again, 'utf8') === readFileSync(out, 'utf8')).toBe(true);
  });

  it('check --seeds --html: the findings of every seed of the sweep', async () => {
    const out = join(dir, 'sweep.html');
    const run = await runMain(['check', '--seeds', '1..2', '--runs', '10', '--no-shrink', '--workers', '1', '--out', join(dir, 'sweep'), '--html', out]);
    expect(run.code).toBe(0);
    type Sweep = { kind: string; seeds: { report: { findings: unknown[] } }[]; viewer: { findings: { id: string; commands: { command: string }[] }[] } };
    const report = extractReport(readFileSync(out, 'utf8')) as Sweep;
    expect(report.kind).toBe('sweep');
    expect(report.viewer.findings.length).toBe(report.seeds.reduce((n, s) => n + s.report.findings.length, 0));
    expect(new Set(report.viewer.findings.map((f) => f.id)).size).toBe(report.viewer.findings.length);
    expect(report.viewer.findings.some((f) => f.commands[0]!.command.includes('--seed 2 '))).toBe(true);
  });

  it('explore --html: one finding per cause of the exploration', async () => {
    const out = join(dir, 'explore.html');
    const json = join(dir, 'explore.json');
    await runMain(['explore', '--preset', 'server-request-cancel', '--out', join(dir, 'repro'), '--json', json, '--html', out]);
    const report = extractReport(readFileSync(out, 'utf8')) as { findings: unknown[]; viewer: { findings: unknown[] } };
    expect(report.viewer.findings.length).toBe(report.findings.length);
    expect(report.findings.length).toBeGreaterThan(0);
  });

  it('check MODULE --html, and replay FILE --html: the pages of a user server\'s findings', async () => {
    const server = 'examples/servers/faulty/fetchWithoutSignal.ts';
    const out = join(dir, 'fuzz.html');
    const repro = join(dir, 'fz');
    const run = await runMain(['check', server, '--runs', '60', '--out', repro, '--html', out]);
    const [, , n] = htmlLine.exec(run.stdout)!;
    expect(Number(n)).toBeGreaterThan(0);
    const report = extractReport(readFileSync(out, 'utf8')) as { kind: string; viewer: { findings: { invariant: string }[] } };
    expect(report.kind).toBe('campaign');
    const file = join(repro, `examples_servers_faulty_fetchWithoutSignal.ts-${report.viewer.findings[0]!.invariant}.json`);
    expect(existsSync(file)).toBe(true);
    const again = await runMain(['replay', file, '--html', join(dir, 'fuzz-replay.html')]);
    expect(again.stdout).toMatch(htmlLine);
  });
});
