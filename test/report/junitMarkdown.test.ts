import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type TestSuites } from 'junit2json';
import { afterAll, describe, expect, it } from 'vitest';
import type { RateCheck } from '../../src/campaign/rateCheck.ts';
import type { CampaignReport, FindingSummary } from '../../src/campaign/runCampaign.ts';
import { verdictOf } from '../../src/campaign/verdict.ts';
import { coverage, finding, invariants } from '../../src/model/index.ts';
import { resolveWorkload } from '../../src/options/index.ts';
import { junitReport } from '../../src/report/junit.ts';
import { markdownReport } from '../../src/report/markdown.ts';
import { toMermaid } from '../../src/report/mermaid.ts';
import { loadBaseline } from '../../src/baseline/baseline.ts';
import { runChecked } from '../../src/check/index.ts';
import { installedSdk } from '../../src/sdk/load.ts';
import { runMain } from '../cli/runMain.ts';

const madeWith = { tool: { name: 'mcp-sim', version: '0.1.0' }, sdk: { name: '@modelcontextprotocol/sdk', version: '1.32.2' } };
const newOne = finding('cancel.not-initialize', 3, 'the client cancelled its initialize request (id 0).', 'client:0');
const known = finding('leak.abort-listeners', 9, 'signal a still has 1 abort listener(s).', 'signal:a');
const findings: FindingSummary[] = [
  { invariant: 'cancel.not-initialize', example: newOne, runs: 4, firstCase: 2, fresh: { example: newOne, runs: 1, firstCase: 7, inBaselineCampaign: 1 } },
  { invariant: 'leak.abort-listeners', example: known, runs: 30, firstCase: 0 },
];
const rise: RateCheck = {
  cause: { invariant: 'leak.abort-listeners', variant: 'memory', shape: 'signal', runs: 10 },
  severity: 'violation',
  runs: 30,
  of: 100,
  expected: 1,
  pValue: 1e-20,
  regression: true,
};
const report = {
  seed: 42,
  workload: resolveWorkload(),
  runs: 100,
  wallMs: 1500,
  findings,
  nondeterministic: [],
  coverage: coverage([]),
  rates: { checked: true, checks: [rise] },
} as unknown as CampaignReport;
const verdict = verdictOf(report, { failOn: 'should' });

describe('JUnit and Markdown reports', () => {
  it('JUnit: one test case per campaign-judged invariant; failures for new findings and rate rises, known ones passing with their counts', () => {
    const xml = junitReport(report, { verdict, madeWith });
    expect(xml.match(/<testcase /g)).toHaveLength(invariants.size - 1);
    expect(xml).toMatch(/<testsuites tests="\d+" failures="2" errors="0" skipped="0">/);
    expect(xml).toContain('<testcase classname="mcp-sim.cancel" name="cancel.not-initialize">');
    expect(xml).toContain('<failure message="the client cancelled its initialize request (id 0). (a new cause of a known invariant)" type="new-finding">');
    expect(xml).toContain('replay: npx mcp-sim replay --seed 42 --case 7 --expect cancel.not-initialize --made-with mcp-sim@0.1.0,@modelcontextprotocol/sdk@1.32.2');
    expect(xml).toContain('type="rate"');
    expect(xml).toContain('leak.abort-listeners on memory [signal] fired in 30 of 100 runs; the baseline predicts 1.0');
    // Nothing beyond the baseline: the known finding passes and says what was seen.
    const quiet = junitReport({ ...report, findings: [findings[1]!], rates: { checked: true, checks: [] } }, { verdict: verdictOf({ ...report, findings: [findings[1]!], rates: { checked: true, checks: [] } }, { failOn: 'should' }), madeWith });
    expect(quiet).toMatch(/failures="0"/);
    expect(quiet).toContain('known: found in 30 of 100 runs, first in case 0');
  });

  it('JUnit: a JUnit parser (junit2json) reads the file back: the suite, its cases and the failures with their replay commands', async () => {
    const parsed = (await parse(junitReport(report, { verdict, madeWith }))) as TestSuites;
    const suite = parsed.testsuite![0]!;
    expect(suite.name).toBe('mcp-sim check seed=42 on @modelcontextprotocol/sdk@1.32.2');
    expect(suite.tests).toBe(invariants.size - 1);
    expect(suite.failures).toBe(2);
    const byName = new Map(suite.testcase!.map((c) => [c.name, c]));
    expect(byName.get('cancel.not-initialize')?.classname).toBe('mcp-sim.cancel');
    expect(byName.get('cancel.not-initialize')?.failure?.[0]?.inner).toContain('replay: npx mcp-sim replay --seed 42 --case 7');
    expect(byName.get('leak.abort-listeners')?.failure?.[0]?.type).toBe('rate');
    expect(byName.get('rpc.well-formed')?.failure).toBeUndefined();
  });

  it('Markdown: the verdict first, a row per invariant broken, the rate check, and a replay command for each failure', () => {
    const md = markdownReport(report, { verdict, madeWith, failOn: 'should' });
    const lines = md.split('\n');
    expect(lines[0]).toBe('## mcp-sim check: ❌ FAIL');
    expect(md).toContain('| ❌ | `cancel.not-initialize` | MUST | 4 | new in 1 | 7 |');
    expect(md).toContain('| · | `leak.abort-listeners` | DERIVED | 30 | known | 0 |');
    expect(md).toContain('- ❌ `leak.abort-listeners on memory [signal]`: in 30 of 100 runs; the baseline predicts 1.0 (p = 1.0e-20)');
    expect(lines).toContain('### `cancel.not-initialize` (MUST, basic/utilities/cancellation): ❌ fails the campaign');
    expect(lines).toContain('### `leak.abort-listeners` (DERIVED, (harness: quiescence)): known');
    expect(lines).toContain('npx mcp-sim replay --seed 42 --case 7 --expect cancel.not-initialize --made-with mcp-sim@0.1.0,@modelcontextprotocol/sdk@1.32.2');
    expect(lines.at(-2)).toMatch(/^Coverage: 0 distinct model transitions; race pairs: progress-after-response 0, /);
  });

  const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-reports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every Mermaid diagram a report can carry is a well-formed sequence diagram (the minimal case of every baseline entry)', async () => {
    const sdk = installedSdk();
    const entries = loadBaseline(sdk.name, sdk.version)!.entries;
    for (const e of entries) {
      const { result } = await runChecked(e.counterexample.scenario, { tape: e.counterexample.tape, seed: e.counterexample.seed });
      const d = toMermaid(result.trace, { skipHandshake: true });
      const lines = d.split('\n');
      expect(lines[0]).toBe('sequenceDiagram');
      // Only statements a sequence diagram has: participants, arrows with a message, notes; no ";" (Mermaid ends a message there).
      for (const line of lines.slice(1)) expect(line, d).toMatch(/^  (participant \w+|\w+(-|--)(>>|x|\)|>)\w+: [^;]*|Note (over|left of|right of) [\w,]+: [^;]*)$/);
    }
  });

  it('check --junit and --report write both files, consistent with the verdict', async () => {
    const junitFile = join(dir, 'nested', 'check.xml');
    const markdownFile = join(dir, 'summary.md');
    const run = await runMain(['check', '--runs', '20', '--no-shrink', '--junit', junitFile, '--report', markdownFile]);
    expect(run.code).toBe(0);
    const xml = readFileSync(junitFile, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toMatch(/failures="0"/);
    expect(readFileSync(markdownFile, 'utf8')).toMatch(/^## mcp-sim check: ✅ PASS\n\nSeed 20261130, 20 runs/);
    const bad = await runMain(['check', '--junit', '']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--junit/);
  });
});
