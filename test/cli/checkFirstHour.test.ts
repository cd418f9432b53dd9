import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from './runMain.ts';

const fixture = 'test/target/fixtures/workServer.mjs';
const out = mkdtempSync(join(tmpdir(), 'mcp-sim-first-hour-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Doc {
  target: { language?: string; author?: string };
  toolCounts: { tool: string; calls: number; cancels: number; withToken: number; closes: number }[];
  findings: { invariant: string; owner: string; call?: string; tool?: string; advice?: string; minimal: { calls: { label: string; tool: string; arguments: Record<string, unknown> }[] }; replay?: { file: string; command: string } }[];
}

/** What a server author reads after a first run (issue #33): one real campaign, shrunk, read in every report. */
describe('check -- <command>: what a server author reads', () => {
  it('the minimal case keeps only declared arguments, its calls say c1, c2 …; every report counts each tool\'s calls; advice speaks the server\'s language; JUnit per tool with the replay command', async () => {
    const json = join(out, 'a.json');
    const run = await runMain(['check', '--runs', '4', '--rate-runs', '1', '--out', join(out, 'repro'), '--json', json, '--junit', join(out, 'a.xml'), '--report', join(out, 'a.md'), '--', 'node', fixture, '--fault', 'total-changes']);
    expect(run.code).toBe(1);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as Doc;
    // The fixture's `work` declares steps and stepMs; the generator adds others (its schema allows them): shrunk away.
    const mine = doc.findings.filter((f) => f.owner === 'target');
    expect(mine.length).toBeGreaterThan(0);
    for (const f of mine) {
      for (const c of f.minimal.calls) expect(Object.keys(c.arguments).every((k) => k === 'steps' || k === 'stepMs'), JSON.stringify(c.arguments)).toBe(true);
      expect(f.minimal.calls.map((c) => c.label)).toEqual(f.minimal.calls.map((_, k) => `c${k + 1}`));
      expect(f).toMatchObject({ invariant: 'progress.total-stable', tool: 'work', call: expect.stringMatching(/^c\d+$/), advice: expect.stringMatching(/^fix \(TypeScript, tool work\): .*same `total`/) });
    }
    // Counts: every call of the runs, of the one tool.
    expect(doc.target).toMatchObject({ language: 'typescript', author: 'user' });
    expect(doc.toolCounts).toHaveLength(1);
    const [work] = doc.toolCounts;
    expect(work!.tool).toBe('work');
    expect(work!.calls).toBeGreaterThanOrEqual(4);
    for (const n of [work!.cancels, work!.withToken, work!.closes]) expect(n).toBeLessThanOrEqual(work!.calls);
    const line = `calls of work: ${work!.calls} call(s), ${work!.cancels} cancelled, ${work!.withToken} with a progress token, ${work!.closes} in flight at a close`;
    expect(run.stdout).toContain(line);
    expect(readFileSync(join(out, 'a.md'), 'utf8')).toContain(`| \`work\` | ${work!.calls} | ${work!.cancels} | ${work!.withToken} | ${work!.closes} |`);
    // JUnit: one test case per tool and invariant of a call; the failing one carries the fix and the replay command.
    const xml = readFileSync(join(out, 'a.xml'), 'utf8');
    expect(xml).toContain(`<property name="calls:work" value="${line.slice('calls of work: '.length)}"/>`);
    expect(xml).toMatch(/<testcase classname="mcp-sim.work" name="work: progress.increasing"\/>/);
    const failing = /<testcase classname="mcp-sim.work" name="work: progress.total-stable">\s*<failure message="[^"]*" type="finding"><!\[CDATA\[([^]*?)\]\]><\/failure>/.exec(xml);
    expect(failing).not.toBeNull();
    expect(failing![1]).toContain('fix (TypeScript, tool work)');
    expect(failing![1]).toMatch(/replay: npx mcp-sim replay \S+-[0-9a-f]{8}-progress\.total-stable\.json/);
    expect(xml).not.toMatch(/name="work: http\./);
    // The replay files: under --out, named by the target (its hash) and invariant, the printed path runnable from here.
    for (const f of mine) {
      expect(f.replay!.file.startsWith(join(out, 'repro'))).toBe(true);
      expect(run.stdout).toContain(`replay: ${f.replay!.command}`);
    }
  });

  it('another target\'s run into the same --out leaves the first one\'s replay files', async () => {
    const before = readdirSync(join(out, 'repro')).sort();
    expect(before.length).toBeGreaterThan(0);
    const again = await runMain(['check', '--runs', '3', '--rate-runs', '1', '--no-shrink', '--quiet', '--out', join(out, 'repro'), '--env', 'SAME=words', '--', 'node', fixture, '--fault', 'total-changes']);
    expect(again.code).toBe(1);
    const after = readdirSync(join(out, 'repro'));
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after.length).toBeGreaterThan(before.length);
  });
});
