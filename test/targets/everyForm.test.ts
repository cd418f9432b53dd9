import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ajvValidator } from '../../src/workload/ajvValidator.ts';

/**
 * The seven forms of `mcp-sim check TARGET`, each end to end on a short budget: its `--json`
 * validates against schemas/report.schema.json and names the target's kind and clock, and a
 * finding it wrote replays with `replay FILE` (byte for byte on the virtual clock, with a rate on
 * the real one). Needs the built test beds (npm run testbeds:sdk) and the npm registry for
 * sdk@1.26.0 when the cache lacks it: run by `npm run test:testbeds`.
 */
const root = new URL('../../', import.meta.url).pathname;
const validate = ajvValidator(JSON.parse(readFileSync(join(root, 'schemas/report.schema.json'), 'utf8')) as object);
const work = mkdtempSync(join(tmpdir(), 'mcp-sim-every-form-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const server = join(root, 'test/target/fixtures/workServer.mjs');

const mcpSim = (args: readonly string[]) => {
  const run = spawnSync(process.execPath, [join(root, 'bin/mcp-sim.js'), ...args], { cwd: root, encoding: 'utf8', timeout: 170_000 });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
};

interface Form {
  readonly name: string;
  /** The words of `check` before the common flags (the target, its own flags). */
  readonly target: readonly string[];
  /** Budget flags for this kind. */
  readonly budget: readonly string[];
  readonly kind: string;
  readonly clock: 'virtual' | 'real';
  /** A finding this form's run shows, whose replay file is replayed (none: the form checks clean). */
  readonly replays?: string;
  /** Words after `--` (a stdio command). */
  readonly command?: readonly string[];
}

const REAL = ['--runs', '6', '--rate-runs', '1', '--no-shrink'];
const FORMS: readonly Form[] = [
  { name: '(none): the installed SDK', target: [], budget: ['--runs', '40'], kind: 'sdk', clock: 'virtual', replays: 'cancel.late-response-silent' },
  { name: 'sdk@1.26.0', target: ['sdk@1.26.0'], budget: ['--runs', '20'], kind: 'sdk', clock: 'virtual' },
  { name: './server.ts', target: ['examples/servers/faulty/fetchWithoutSignal.ts'], budget: ['--runs', '60'], kind: 'module', clock: 'virtual', replays: 'cancel.zombie-work' },
  { name: '-- <command>', target: [], command: ['node', server, '--fault', 'total-changes'], budget: REAL, kind: 'process', clock: 'real', replays: 'progress.total-stable' },
  { name: '<url> --start', target: ['http://127.0.0.1:{port}/mcp', '--start', `node ${server} --http --port {port} --fault total-changes`], budget: REAL, kind: 'url', clock: 'real', replays: 'progress.total-stable' },
  { name: 'testbed:<language>@<release>', target: ['testbed:python@1.30.0'], budget: ['--runs', '10', '--rate-runs', '1', '--no-shrink'], kind: 'testbed', clock: 'real', replays: 'cancel.no-response-after' },
  { name: 'client:<language>', target: ['client:typescript', '--transport', 'http', '--scenario', 'max-total'], budget: ['--rate-runs', '1'], kind: 'client', clock: 'real', replays: 'timeout.max-total' },
];

describe('check TARGET, each of the seven forms, end to end', () => {
  it.each(FORMS)('$name: a valid --json report of its kind and clock; replay FILE reproduces its finding', (form) => {
    const dir = mkdtempSync(join(work, 'form-'));
    const json = join(dir, 'report.json');
    const out = join(dir, 'replays');
    const run = mcpSim(['check', ...form.target, ...form.budget, '--json', json, '--out', out, ...(form.command ? ['--', ...form.command] : [])]);
    expect([0, 1], run.output.slice(-2000)).toContain(run.code);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { kind: string; clock?: string; target?: { kind: string; clock: string } };
    expect(validate(report) ? 'valid' : validate.errors(), form.name).toBe('valid');
    if (form.kind === 'sdk') expect(report.kind).toBe('campaign');
    else expect(report).toMatchObject({ kind: 'campaign', clock: form.clock, target: { kind: form.kind, clock: form.clock } });
    if (!form.replays) return;
    const file = readdirSync(out, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('.json') && f.includes(form.replays!));
    expect(file, `no replay file of ${form.replays} in ${readdirSync(out, { recursive: true, encoding: 'utf8' }).join(', ')}`).toBeDefined();
    const replay = mcpSim(['replay', join(out, file!), ...(form.clock === 'real' ? ['--rate-runs', '1'] : [])]);
    expect(replay.output).toContain(`reproduced: ${form.replays}`);
    // 0: reproduced, a SHOULD finding; 1: reproduced, one that fails (MUST); 3 would be "not reproduced".
    expect([0, 1], replay.output.slice(-1500)).toContain(replay.code);
  });
});
