import { parse, type TestSuites } from 'junit2json';
import { beforeAll, describe, expect, it } from 'vitest';
import { knownCausesOf, loadBaseline } from '../../src/baseline/baseline.ts';
import { runChecked } from '../../src/check/index.ts';
import { explore, explorePreset, type ExploreResult } from '../../src/explore/index.ts';
import { invariants } from '../../src/model/index.ts';
import { exploreJunitReport } from '../../src/report/exploreJunit.ts';
import { exploreMarkdownReport } from '../../src/report/exploreMarkdown.ts';
import type { Scenario } from '../../src/sim/index.ts';
import { installedSdk } from '../../src/sdk/load.ts';

const sdk = installedSdk();
const madeWith = { tool: { name: 'mcp-sim', version: '0.1.0' }, sdk };
const known = knownCausesOf(loadBaseline(sdk.name, sdk.version));
const failingPreset = explorePreset('server-request-cancel')!;
const cutPreset = explorePreset('request-cancel-response')!;
/** One call over memory, timers after 1 s out of scope: one schedule, nothing broken. */
const quiet: Scenario = {
  profile: 'memory',
  handlers: { tool: { steps: [], end: { kind: 'result' }, onAbort: 'honour' } },
  actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: {} }],
};
/** A made-up replay command per cause: the reports must carry each one. */
const replaysOf = (r: ExploreResult) => new Map(r.findings.map((f, k) => [f.cause, `npx mcp-sim replay repro/${k + 1}.json`]));
const view = (r: ExploreResult, source: string) => ({ source, replays: replaysOf(r), madeWith, failOn: 'should' });

let failing: ExploreResult;
let cut: ExploreResult;
let clean: ExploreResult;
beforeAll(async () => {
  failing = await explore(failingPreset.scenario, { known, failOn: 'should' });
  cut = await explore(cutPreset.scenario, { known, reduce: false, runsMax: 5 });
  clean = await explore(quiet, { known, virtualMsMax: 1_000 });
});

describe('explore: JUnit and Markdown reports', () => {
  it('JUnit, read back by junit2json: a case per invariant, failing where the verdict fails with its replay command, known causes in the output, the numbers as properties', async () => {
    expect(failing.failed).toBe(true);
    const parsed = (await parse(exploreJunitReport(failing, view(failing, 'preset=server-request-cancel')))) as TestSuites;
    const suite = parsed.testsuite![0]!;
    expect(suite.name).toBe(`mcp-sim explore preset=server-request-cancel on ${sdk.name}@${sdk.version}`);
    expect(suite.tests).toBe(invariants.size);
    expect(suite.failures).toBe(new Set(failing.findings.filter((f) => f.failing).map((f) => f.invariant)).size);
    // junit2json reads numbers and booleans back as such: compare as text.
    const properties = new Map(suite.properties!.map((p) => [p.name, String(p.value)]));
    expect(properties.get('schedules-explored')).toBe(String(failing.stats.schedules));
    expect(properties.get('distinct-end-states')).toBe(String(failing.endStates.length));
    expect(properties.get('complete')).toBe('true');
    const byName = new Map(suite.testcase!.map((c) => [c.name, c]));
    for (const f of failing.findings) {
      const testCase = byName.get(f.invariant)!;
      const replay = replaysOf(failing).get(f.cause)!;
      if (f.failing) expect(testCase.failure?.[0]?.inner).toContain(`replay: ${replay}`);
      else expect(testCase['system-out']?.join('\n')).toContain(`${f.known ? 'known' : 'not failing'}: ${f.cause}`);
    }
    expect(byName.get('cancel.no-response-after')?.failure?.[0]?.message).toBe('the client answered request 0 after it had received its cancellation.');
    expect(byName.get('rpc.well-formed')?.failure).toBeUndefined();
    expect(byName.get('harness.deterministic')?.skipped).toBeDefined();
    expect(byName.get('scope')).toMatchObject({ classname: 'mcp-sim.explore', 'system-out': ['exhaustive within this scope: 5 cause(s) found'] });
    expect(byName.get('scope')?.skipped).toBeUndefined();
  });

  it('JUnit: a bound that cuts the exploration skips the scope case, saying what was not explored; a clean one fails nothing', async () => {
    const suite = ((await parse(exploreJunitReport(cut, view(cut, 'preset=request-cancel-response')))) as TestSuites).testsuite![0]!;
    const scope = suite.testcase!.find((c) => c.name === 'scope')!;
    expect(scope.skipped).toBeDefined();
    expect(scope['system-out']![0]).toMatch(/^NOT exhaustive: --runs-max 5 reached with \d+ branch\(es\)/);
    const quietSuite = ((await parse(exploreJunitReport(clean, view(clean, 'scenario=quiet.json')))) as TestSuites).testsuite![0]!;
    expect(quietSuite.failures).toBe(0);
    expect(quietSuite.testcase!.find((c) => c.name === 'scope')!['system-out']).toEqual(['exhaustive within this scope: clean']);
  });

  it('Markdown: the verdict, the numbers, the scope, a row per cause, then a section per cause (failing first) with its replay and the diagram of its 1-minimal schedule', () => {
    const md = exploreMarkdownReport(failing, view(failing, 'preset=server-request-cancel'));
    const lines = md.split('\n');
    expect(lines[0]).toBe('## mcp-sim explore: ❌ FAIL');
    expect(lines).toContain(`| ${failing.stats.schedules} | ${failing.stats.pruned} | ${failing.stats.sleepBlocked} | ${failing.traces} | ${failing.endStates.length} | DPOR | 200 | 20000 | 0 |`);
    expect(lines).toContain('**exhaustive within this scope: 5 cause(s) found**');
    const sections = lines.filter((l) => l.startsWith('### '));
    expect(sections).toHaveLength(failing.findings.length);
    expect(sections[0]).toBe('### `cancel.no-response-after memory s1` (SHOULD, basic/utilities/cancellation): ❌ fails the exploration');
    for (const [cause, command] of replaysOf(failing)) {
      expect(lines).toContain(command);
      expect(md).toContain(`| \`${cause}\` |`);
    }
    expect(md.match(/^```mermaid\nsequenceDiagram$/gm)).toHaveLength(failing.findings.length);
    // Each diagram holds only what a sequence diagram has: participants, arrows with a message, notes; no ";".
    for (const diagram of md.split('```mermaid\n').slice(1).map((d) => d.slice(0, d.indexOf('```')).trim().split('\n').slice(1))) {
      for (const line of diagram) expect(line).toMatch(/^  (participant \w+|\w+(-|--)(>>|x|\)|>)\w+: [^;]*|Note (over|left of|right of) [\w,]+: [^;]*)$/);
    }
    const noResponse = failing.findings.find((f) => f.failing)!;
    expect(lines).toContain(`1-minimal schedule: ${noResponse.deviations} deviation(s) from the natural order, tape [${noResponse.tape.join(',')}]; seen in ${noResponse.schedules} of ${failing.stats.schedules} schedule(s).`);
  });

  it('Markdown: a clean exploration says so; a cut one says what the bound left out', () => {
    const quietMd = exploreMarkdownReport(clean, view(clean, 'scenario=quiet.json'));
    expect(quietMd.split('\n').slice(0, 1)).toEqual(['## mcp-sim explore: ✅ PASS']);
    expect(quietMd).toContain('**exhaustive within this scope: clean**');
    expect(quietMd).not.toContain('### ');
    const cutMd = exploreMarkdownReport(cut, view(cut, 'preset=request-cancel-response'));
    expect(cutMd).toMatch(/^\*\*NOT exhaustive: --runs-max 5 reached with \d+ branch\(es\) of the schedule tree not explored\*\*$/m);
    expect(cutMd).not.toContain('exhaustive within this scope');
    expect(cutMd).toContain('| 5 | – | – |');
  });

  it('the diagram of a cause is its schedule: the trace a fresh run of its tape gives', async () => {
    for (const f of failing.findings) {
      const run = await runChecked(failingPreset.scenario, { tape: [...f.tape] });
      expect(run.result.trace, f.cause).toEqual(f.trace);
    }
  });
});
