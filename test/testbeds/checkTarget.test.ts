import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTestbedBaseline, sdkTestbed, type SdkTestbedLanguage } from '../../src/targets/testbed/index.ts';
import { runMain } from '../cli/runMain.ts';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-check-target-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const installed = (language: SdkTestbedLanguage) => !('skipped' in sdkTestbed(language));

describe('check testbed:<language> on built test beds (black box, real time)', () => {
  it('typescript: a short campaign prints seed, mode, release and speed, writes its JSON report, and exits by the baseline', async () => {
    expect(installed('typescript'), 'the TypeScript test bed: npm run testbeds:sdk typescript').toBe(true);
    const json = join(scratch, 'ts.json');
    const html = join(scratch, 'ts.html');
    const md = join(scratch, 'ts.md');
    const run = await runMain(['check', 'testbed:typescript', '--runs', '6', '--seed', '3', '--rate-runs', '2', '--parallel', '2', '--json', json, '--html', html, '--md', md, '--out', scratch]);
    expect(run.lines[0]).toMatch(/^mcp-sim check testbed:typescript@\d+\.\d+\.\d+  seed=3  \(real time: every finding carries its reproduction rate\)$/);
    expect(run.stdout).toMatch(/^ {2}target {8}@modelcontextprotocol\/sdk \d+\.\d+\.\d+, typescript test bed \(low and high layers\), over stdio$/m);
    expect(run.stdout).toMatch(/^efficiency: [\d.]+ runs\/s \(\d+ ms wall: .*\); start-up \d+ ms median/m);
    type Report = { kind: string; clock: string; runs: number; target: { kind: string; spec: { language: string }; system: { version: string } }; verdict: { result: string; exitCode: number }; findings: { known: boolean; invariant: string; cause: { variant: string } }[] };
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report).toMatchObject({ kind: 'campaign', clock: 'real', runs: 6, target: { kind: 'testbed', spec: { language: 'typescript' } } });
    // A finding called known is in the release's committed baseline; the exit code is the verdict's.
    const baseline = loadTestbedBaseline('typescript', report.target.system.version);
    for (const f of report.findings.filter((f) => f.known)) expect(baseline?.entries.some((e) => e.invariant === f.invariant), f.invariant).toBe(true);
    expect(run.code).toBe(report.verdict.exitCode);
    expect(run.lines.find((l) => /^(PASS|FAIL) /.test(l))).toMatch(report.verdict.result === 'pass' ? /^PASS / : /^FAIL /);
    // The viewer draws the JSON report as a black-box one; the Markdown names the release.
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(readFileSync(md, 'utf8')).toContain('- real time (black box): @modelcontextprotocol/sdk ');
  });

  it('rust: a transport the release lacks is one line and exit 2 (rmcp has no stateful JSON mode)', async () => {
    expect(installed('rust'), 'the Rust test bed: npm run testbeds:sdk rust').toBe(true);
    const run = await runMain(['check', 'testbed:rust', '--transport', 'http-stateful-json']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(/^mcp-sim check testbed:rust@[\d.]+: the rust test bed \(rmcp .+\) has no http-stateful-json: it offers stdio, http-stateful-sse/);
  });

  it('a version the registry lacks is one line and exit 2 (the install says so, exit 4)', async () => {
    const run = await runMain(['check', 'testbed:rust@9.9.9', '--runs', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(/^mcp-sim check testbed:rust@9\.9\.9: (the registry has no such version|a toolchain is missing): testbed sdk-rust: /);
  });

  // A sample of the committed baselines' findings: each replays from its minimal case on its release.
  const samples = (['rust', 'java', 'go'] as const).flatMap((language) => {
    const bed = sdkTestbed(language);
    if ('skipped' in bed) return [];
    const entry = loadTestbedBaseline(language, bed.version)?.entries.find((e) => e.rate.hits === e.rate.runs);
    return entry ? [{ language, version: bed.version, entry }] : [];
  });
  it('a baseline finding replays from its command and reports its rate', async () => {
    expect(samples.length, 'a reproducible baseline entry of a built rust, java or go test bed').toBeGreaterThan(0);
    const { language, version, entry } = samples[0]!;
    const file = join(scratch, 'replay.json');
    writeFileSync(file, JSON.stringify({ kind: 'testbed-check', invariant: entry.invariant, language, version, transport: entry.transport, plan: entry.minimal, bounds: { hangAfterMs: 3_000, inFlightMs: 150, graceMs: 3_000 }, rate: entry.rate }));
    expect(existsSync(file)).toBe(true);
    const run = await runMain(['check', '--target', language, '--sdk-version', version, '--replay', file, '--rate-runs', '2']);
    expect(run.lines.at(-1)).toMatch(new RegExp(`^reproduced: ${entry.invariant.replace('.', '\\.')}, (reproduced 2/2|1/2: timing-dependent)$`));
    expect(run.code).toBe(0);
    // The one replay command reads the old file too.
    const again = await runMain(['replay', file, '--rate-runs', '2']);
    expect(again.lines.at(-1)).toMatch(new RegExp(`^reproduced: ${entry.invariant.replace('.', '\\.')}, (reproduced 2/2|1/2: timing-dependent)$`));
    expect(again.code).toBe(0);
  });
});
