import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSdk } from '../../src/sdk/load.ts';
import { runMain } from './runMain.ts';

const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as object;
// ajv is CommonJS: its default export arrives as the module or as its `default`, by loader.
type AjvClass = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as { default?: AjvClass }).default ?? Ajv2020Module) as unknown as AjvClass;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-old-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The folder of 1.0.0 (a devDependency alias): `--sdk <folder>` needs no registry. */
const oldest = async () => (await loadSdk({ kind: 'package', name: 'sdk-1.0.0' })).root;

describe('check --sdk 1.0.0: the oldest release runs what it offers and says what it left out', () => {
  it('should run the memory profile with the default profiles, list every part left out, and print replay commands that reproduce', async () => {
    const [json, markdown] = [join(dir, 'report.json'), join(dir, 'report.md')];
    const run = await runMain(['check', '--sdk', await oldest(), '--runs', '60', '--no-shrink', '--json', json, '--report', markdown, '--out', join(dir, 'out')]);
    expect(run.code).toBe(1);
    expect(run.lines).toContain('  profiles      memory');
    for (const what of ['profile http', 'elicitation/create requests', 'call option resetTimeoutOnProgress', 'call option maxTotalTimeout']) {
      expect(run.lines.some((l) => l.startsWith(`  left out      ${what}: @modelcontextprotocol/sdk@1.0.0 `))).toBe(true);
    }
    expect(run.lines.some((l) => l.startsWith('  limit         related messages: '))).toBe(true);
    expect(run.stdout).not.toMatch(/harness\.(unhandled|as-scripted)/);

    const doc = JSON.parse(readFileSync(json, 'utf8')) as { options: { workload: { leaveOut?: string[] }; leftOut?: { what: string }[]; limits?: { what: string }[] }; violations: { replay: { command: string } }[] };
    expect(validate(doc) ? 'valid' : JSON.stringify(validate.errors?.slice(0, 3))).toBe('valid');
    expect(doc.options.workload.leaveOut).toEqual(['reset-on-progress', 'max-total-timeout', 'elicitation']);
    expect(doc.options.leftOut?.map((l) => l.what)).toEqual(['profile http', 'elicitation/create requests', 'call option resetTimeoutOnProgress', 'call option maxTotalTimeout']);
    expect(doc.options.limits?.map((l) => l.what)).toEqual(['related messages']);
    expect(readFileSync(markdown, 'utf8')).toContain('- Left out: **call option maxTotalTimeout**: @modelcontextprotocol/sdk@1.0.0 does not declare the option maxTotalTimeout');

    // The printed command carries the cut (--leave-out) and the release (--sdk), and reproduces.
    const command = doc.violations[0]!.replay.command;
    expect(command).toContain('--leave-out reset-on-progress,max-total-timeout,elicitation');
    const replay = await runMain(command.replace(/^npx mcp-sim /, '').split(' '));
    expect(replay.lines.at(-1)).toMatch(/^reproduced: /);
  });

  it('should stop an http-only campaign with one line and exit 2', async () => {
    const run = await runMain(['check', `sdk@${await oldest()}`, '--profiles', 'http', '--runs', '10']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/the http profile cannot run: .*1\.0\.0 has no web-standard Streamable HTTP transports .*; run --profiles memory/)]);
  });

  it('should refuse an unknown part to leave out, naming the known ones', async () => {
    const run = await runMain(['check', '--leave-out', 'timeouts', '--runs', '10']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--leave-out.*unknown part\(s\) "timeouts".*reset-on-progress, max-total-timeout, elicitation/);
  });
});
