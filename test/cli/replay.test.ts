import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseAt } from '../../src/campaign/simCase.ts';
import { resolveWorkload } from '../../src/options/index.ts';
import { runMain } from './runMain.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-replay-'));

/** A case whose client aborts its call: the abort's cancel reaches a hanging handler. */
const simCase = {
  scenario: {
    profile: 'memory',
    handlers: { h1: { steps: [], end: { kind: 'hang' }, onAbort: 'honour' } },
    actions: [
      { kind: 'call', call: 'c1', method: 'tools/call', options: { signal: 'a' }, handler: 'h1' },
      { kind: 'abort', signal: 'a' },
    ],
  },
  tape: [],
  seed: 0,
};

describe('mcp-sim replay', () => {
  it('replays a file: header, tape, scenario, trace hash, trace, findings; the same hash every time', async () => {
    // A hand-written file: no schemaVersion (read with a warning), no invariant (no expectation: exit 0 or 1).
    const file = join(dir, 'case.json');
    writeFileSync(file, JSON.stringify(simCase));
    const a = await runMain(['replay', file, '--mermaid']);
    expect(a.stderr).toMatch(new RegExp(`^warning: ${file} has no schemaVersion .* replays unchecked with mcp-sim@[^ ]+ and @modelcontextprotocol/sdk@[^ ]+;`));
    expect(a.stderr.trim().split('\n')).toHaveLength(1);
    expect(a.stdout).not.toMatch(/reproduced/);
    expect(a.lines[0]).toBe(`mcp-sim replay  file=${file}  run seed=0`);
    expect(a.lines[1]).toBe('  tape []');
    expect(a.lines[2]).toBe(`  scenario ${JSON.stringify(simCase.scenario)}`);
    expect(a.lines[3]).toMatch(/^ {2}trace hash [0-9a-f]{16}, \d+ steps, \d+ ms virtual, outcome quiescent$/);
    expect(a.stdout).toContain('abort signal a');
    expect(a.stdout).toContain('```mermaid\nsequenceDiagram');
    expect(a.code).toBe(a.stdout.includes('✗ VIOLATION') ? 1 : 0);
    const b = await runMain(['replay', file, '--self-check']);
    expect(b.lines[3]).toBe(a.lines[3]);
    expect(b.stdout).toContain(`self-check: second replay gave the same hash ${a.lines[3]!.split(' ')[4]!.replace(',', '')}`);
  });

  it('replays --seed/--case: the case the campaign with the default workload draws', async () => {
    const run = await runMain(['replay', '--seed', '20261130', '--case', '11']);
    expect(run.lines[0]).toMatch(/^mcp-sim replay {2}seed=20261130 case=11 {2}run seed=\d+$/);
    const expected = caseAt(20261130, 11, resolveWorkload());
    expect(run.lines[1]).toBe(`  tape ${JSON.stringify(expected.tape)}`);
    expect(run.lines[2]).toBe(`  scenario ${JSON.stringify(expected.scenario)}`);
    expect([0, 1]).toContain(run.code);
  });

  it('replays --seed/--case with workload flags: the case drawn with them, not the default one', async () => {
    const flags = ['--profiles', 'http', '--actions-max', '2', '--steps-max', '1', '--no-server-requests', '--no-faults'];
    const run = await runMain(['replay', '--seed', '5', '--case', '0', ...flags]);
    expect(run.lines[0]).toMatch(new RegExp(`^mcp-sim replay  seed=5 case=0 ${flags.join(' ')}  run seed=\\d+$`));
    const expected = caseAt(5, 0, resolveWorkload({ profiles: ['http'], actionsMax: 2, stepsMax: 1, serverRequests: false, faults: false }));
    expect(run.lines[2]).toBe(`  scenario ${JSON.stringify(expected.scenario)}`);
    expect(run.lines[2]).not.toBe(`  scenario ${JSON.stringify(caseAt(5, 0, resolveWorkload()).scenario)}`);
  });

  it('exits 2 with a clear message for a missing file, a file that is no replay file, and an unknown baseline entry', async () => {
    const missing = await runMain(['replay', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`mcp-sim: replay: cannot read ${join(dir, 'nope.json')}: no such file; give a replay file that mcp-sim check wrote (.mcp-sim/repro/*.json)\n`);
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"hello": 1}');
    const wrong = await runMain(['replay', other]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`${other} has no "target" and "case" (nor a "scenario" and "tape")`);
    const unknown = join(dir, 'unknown-invariant.json');
    writeFileSync(unknown, JSON.stringify({ invariant: 'none', ...simCase }));
    const named = await runMain(['replay', unknown]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`${unknown} names invariant "none", which is not in the catalogue`);
    const entry = await runMain(['replay', '--baseline', 'cancel.not-initialize nowhere plain']);
    expect(entry.code).toBe(2);
    expect(entry.stderr).toMatch(/no baseline entry "cancel.not-initialize nowhere plain" for @modelcontextprotocol\/sdk@[\d.]+; entries of that invariant:\n {2}cancel.not-initialize /);
  });
});
