import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ajvValidator } from '../../src/workload/ajvValidator.ts';
import { runMain } from '../cli/runMain.ts';

const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as object;
const validate = ajvValidator(schema);
const valid = (doc: unknown) => (validate(doc) ? 'valid' : validate.errors());
const fixture = 'test/target/fixtures/workServer.mjs';
const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-process-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & { findings: Record<string, unknown>[] };

/** Real small runs against the hand-written fixture server (fast: a Node process, milliseconds a case). */
describe('check -- <command> | <url> --json and rogue -- <command> --json validate against schemas/report.schema.json', () => {
  it('check -- <command>: a campaign with a finding (its cause, minimal case, trace, rate and replay command) is a valid real-clock campaign report', async () => {
    const file = join(dir, 'stdio.json');
    const run = await runMain(['check', '--runs', '3', '--rate-runs', '1', '--no-shrink', '--out', dir, '--json', file, '--', 'node', fixture, '--fault', 'total-changes']);
    expect(run.code).toBe(1);
    const doc = read(file);
    expect(valid(doc)).toBe('valid');
    expect(doc).toMatchObject({ schemaVersion: 1, kind: 'campaign', clock: 'real', target: { kind: 'process', spec: { kind: 'process' } } });
    expect(doc.findings.map((f) => f.invariant)).toContain('progress.total-stable');
    // The schema is not a rubber stamp: the same report without what it sees, or with a rate in other words, is refused.
    const { sees: _sees, ...blind } = doc;
    expect(valid(blind)).toMatch(/sees/);
    expect(valid({ ...doc, findings: [{ ...doc.findings[0], determinism: 'deterministic' }] })).toMatch(/determinism/);
    expect(valid({ ...doc, findings: [{ ...doc.findings[0], trace: [{ kind: 'no-such-event', i: 0, t: 0 }] }] })).toMatch(/kind/);
  });

  it('check <url> --start: an HTTP campaign (its finding\'s trace has POSTs, responses and SSE events) is a valid real-clock campaign report', async () => {
    const file = join(dir, 'http.json');
    const run = await runMain(['check', 'http://127.0.0.1:{port}/mcp', '--start', `node ${fixture} --http --port {port} --fault total-changes`, '--runs', '3', '--rate-runs', '1', '--no-shrink', '--out', dir, '--json', file]);
    const doc = read(file);
    expect(valid(doc)).toBe('valid');
    expect(run.code).toBe(1);
    expect(doc).toMatchObject({ kind: 'campaign', clock: 'real', target: { kind: 'url' }, verdict: { result: 'fail' } });
    const kinds = new Set(doc.findings.flatMap((f) => (f.trace as { kind: string }[]).map((e) => e.kind)));
    expect([...kinds]).toEqual(expect.arrayContaining(['http-request', 'http-response', 'sse-event', 'sse-end']));
  });

  it('check --reuse -- <command>: the report and each finding say state may carry over, with both rates, and validate', async () => {
    const file = join(dir, 'reuse.json');
    await runMain(['check', '--runs', '3', '--rate-runs', '1', '--no-shrink', '--reuse', '--parallel', '1', '--out', dir, '--json', file, '--', 'node', fixture, '--fault', 'total-changes']);
    const doc = read(file);
    expect(valid(doc)).toBe('valid');
    expect(doc.reuse).toMatchObject({ note: 'shared connections: state may carry over between cases', connections: expect.any(Number) });
    expect((doc.reuse as { connections: number }).connections).toBeGreaterThan(0);
    expect(doc.findings.length).toBeGreaterThan(0);
    expect(doc.findings.every((f) => (f.reuse as { note: string }).note === 'shared connections: state may carry over between cases' && /on a fresh process; \d\/1 on shared connections/.test(String(f.determinism)))).toBe(true);
  });

  it('rogue -- <command> --json: the rows are a valid rogue report on a real clock, each with the model\'s findings', async () => {
    const file = join(dir, 'rogue.json');
    const run = await runMain(['rogue', '--filter', 'unknown-method', '--json', file, '--', 'node', fixture]);
    expect(run.code).toBe(0);
    const doc = read(file);
    expect(valid(doc)).toBe('valid');
    expect(doc).toMatchObject({ schemaVersion: 1, kind: 'rogue', clock: 'real', mode: 'black box, real time', target: { kind: 'process' }, verdict: { result: 'pass', exitCode: 0 }, findings: [] });
    expect(valid({ ...doc, rows: [{ ...(doc.rows as object[])[0], state: 'fine' }] })).toMatch(/state/);
    expect(doc.rows).toEqual([expect.objectContaining({ kind: 'unknown-method-request', answer: 'error -32601', state: 'ok', findings: [], expectation: expect.arrayContaining(['rpc.error-code', 'rpc.survives-bad-input']) })]);
    const { cannotJudge: _c, ...silent } = doc;
    expect(valid(silent)).toMatch(/cannotJudge/);
    // A finding in a row is the model's, with its level: the schema refuses one without.
    const found = { ...doc, rows: [{ ...(doc.rows as object[])[0], findings: [{ invariant: 'rpc.error-code', section: 'basic/index', message: 'm' }] }] };
    expect(valid(found)).toMatch(/level/);
  });
});
