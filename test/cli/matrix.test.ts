import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_DIR, prepareMutant } from '../../mutants/lib.ts';
import { runMain, type MainRun } from './runMain.ts';

const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as object;
type AjvClass = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as { default?: AjvClass }).default ?? Ajv2020Module) as unknown as AjvClass;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-matrix-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The cause the planted bug adds: `close()` leaves the pending call unsettled, so its timeout fires after the close.
const plantedRow = /^\| `timeout\.settles` \| memory close\+sleep \| – \| \[(\d+)\]\(([^)]+)\) \| n\/a \|$/;

describe('mcp-sim matrix: rows by cause, a column per release, a reason for a release it cannot drive', () => {
  let run: MainRun;
  const empty = join(dir, 'no-sdk-here');
  beforeAll(async () => {
    // In the project's cache (as the mutation suite builds it): the copy's own imports resolve from the project.
    const copy = prepareMutant('close-keeps-pending', join(CACHE_DIR, '..', 'mcp-sim-matrix-test')).project;
    mkdirSync(empty);
    run = await runMain([
      'matrix', '--sdk', `installed,${copy},${empty}`, '--runs', '100', '--profiles', 'memory',
      '--markdown', join(dir, 'docs', 'matrix.md'), '--json', join(dir, 'matrix.json'), '--chart', join(dir, 'docs', 'heat.svg'), '--out', join(dir, 'docs', 'repro'),
    ]);
  });

  it('puts the planted cause in its own row, clean on the release and violated on the copy, linked to a replay file of the copy', () => {
    expect(run.code).toBe(0);
    expect(run.lines).toContain('| invariant | cause | 1.32.2 (installed) | 1.32.2 (close-keeps-pending) | no-sdk-here |');
    const md = readFileSync(join(dir, 'docs', 'matrix.md'), 'utf8').split('\n');
    const row = md.map((l) => plantedRow.exec(l)).find(Boolean);
    expect(row, md.join('\n')).toBeTruthy();
    expect(Number(row![1])).toBeGreaterThan(0);
    // Linked relatively from the document, to the copy's folder of counterexamples.
    expect(row![2]).toMatch(/^repro\/2-1\.32\.2\/timeout\.settles_memory_close\+sleep\.json$/);
    const file = JSON.parse(readFileSync(resolve(dir, 'docs', row![2]!), 'utf8')) as { invariant: string; madeWith: { sdk: { version: string } } };
    expect(file).toMatchObject({ invariant: 'timeout.settles', madeWith: { sdk: { version: '1.32.2' } } });
    // A cause both share stays one row, violated in both columns.
    expect(md.some((l) => /^\| `leak\.abort-listeners` \| memory [^|]+ \| \[\d+\]\([^)]+\) \| \[\d+\]\([^)]+\) \| n\/a \|$/.test(l))).toBe(true);
  });

  it('lists the release it cannot drive as a column with the reason, and says so per release on stderr', () => {
    expect(run.stdout).toContain(`- **no-sdk-here** cannot be driven: --sdk ${empty}: no @modelcontextprotocol/sdk there`);
    expect(run.stderr).toMatch(/release 1 of 3: @modelcontextprotocol\/sdk@1\.32\.2: 100 runs and \d+ causes shrunk in [\d.]+ s \(\d+ runs\/s/);
    expect(run.stderr).toContain('release 3 of 3: ');
  });

  it('writes JSON that validates (kind matrix), with a cell per column in every row', () => {
    const doc = JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8')) as { kind: string; columns: { status: string; reason?: string }[]; rows: { cause: string; cells: { status: string; replay?: { file: string; command: string } }[] }[] };
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(doc.kind).toBe('matrix');
    expect(doc.columns.map((c) => c.status)).toEqual(['ran', 'ran', 'cannot']);
    const planted = doc.rows.find((r) => r.cause === 'timeout.settles memory close+sleep')!;
    expect(planted.cells.map((c) => c.status)).toEqual(['clean', 'violated', 'not-run']);
    expect(planted.cells[1]!.replay!.command).toMatch(/^npx mcp-sim replay \S+timeout\.settles_memory_close\+sleep\.json --sdk \S+close-keeps-pending$/);
    for (const row of doc.rows) expect(row.cells).toHaveLength(3);
  });

  it('writes the heat map: its Vega-Lite spec holds a cell per (cause, release), and the SVG', () => {
    const spec = JSON.parse(readFileSync(join(dir, 'docs', 'heat.vl.json'), 'utf8')) as { data: { values: { cause: string; release: string; status: string; share?: number }[] } };
    const doc = JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8')) as { rows: unknown[] };
    expect(spec.data.values).toHaveLength(doc.rows.length * 3);
    expect(spec.data.values).toContainEqual(expect.objectContaining({ cause: 'timeout.settles memory close+sleep', release: '1.32.2 (close-keeps-pending)', status: 'violated' }));
    expect(spec.data.values).toContainEqual({ cause: 'timeout.settles memory close+sleep', release: '1.32.2 (installed)', status: 'clean' });
    expect(spec.data.values.filter((v) => v.release === 'no-sdk-here').every((v) => v.status === 'not-run')).toBe(true);
    const svg = readFileSync(join(dir, 'docs', 'heat.svg'), 'utf8');
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('close-keeps-pending');
    expect(existsSync(dirname(join(dir, 'docs', 'heat.svg')))).toBe(true);
  });

  it('refuses a bad release name in the list with one line', async () => {
    const bad = await runMain(['matrix', '--sdk', 'installed,latest', '--runs', '5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--sdk latest: not an exact version/);
  });
});
