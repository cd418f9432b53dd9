import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandsOf } from '../../scripts/docCommands.ts';
import { runMain } from '../cli/runMain.ts';

/**
 * Servers that misbehave on purpose, checked as docs/process-targets.md ("Hostile servers")
 * shows, each command run as printed there: a flood of one call's progress, a frame without end,
 * log notifications flooding every call each end with their finding; a server that prints on
 * stdout is refused at that line (exit 2). A wire bound's finding is neither shrunk nor re-run past
 * what decides its rate. How long each took and how much memory mcp-sim held
 * is `npm run hostile`'s measurement, not asserted here.
 */
const root = new URL('../..', import.meta.url).pathname;
const doc = 'docs/process-targets.md';
const shown = commandsOf(doc, readFileSync(join(root, doc), 'utf8'))
  .map((c) => c.command)
  .filter((c) => c.includes('test/realtime/fixtures/'));
const examplesCache = process.env.MCP_SIM_EXAMPLES_CACHE ?? join(root, 'node_modules', '.cache', 'mcp-sim', 'examples');
const python = join(examplesCache, 'python', 'venv', 'bin', 'python');
const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-hostile-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What each fixture must end with: its findings (exit 1), or the refusal's line (exit 2). */
const EXPECT: readonly { readonly match: string; readonly findings?: readonly string[]; readonly refused?: RegExp }[] = [
  { match: '--mode progress-flood', findings: ['progress.rate-limited'] },
  { match: '--mode huge-frame', findings: ['rpc.frame-size'] },
  { match: '--mode log-flood', findings: ['rpc.rate-limited'] },
  { match: 'printsToStdout.mjs', refused: /not JSON-RPC on stdout: "handling call \d+".*logs belong on stderr.*Python buffers print\(\)/ },
  { match: 'prints_to_stdout.py', refused: /not JSON-RPC on stdout: "handling call \d+".*logs belong on stderr/ },
];

/** The arguments of a shown `npx mcp-sim …` command, the examples' Python where the clone's cache is not. */
function argsOf(command: string): string[] {
  return command
    .replace(/^npx mcp-sim /, '')
    .split(/\s+/)
    .map((a) => (a === 'node_modules/.cache/mcp-sim/examples/python/venv/bin/python' ? python : a));
}

describe('hostile servers (docs/process-targets.md, as printed)', () => {
  it('the page shows each hostile fixture', () => {
    for (const e of EXPECT) expect(shown.some((c) => c.includes(e.match)), e.match).toBe(true);
  });

  for (const e of EXPECT) {
    const command = shown.find((c) => c.includes(e.match));
    const needsPython = command?.includes('venv/bin/python') === true && !existsSync(python);
    it.skipIf(command === undefined || needsPython)(`${e.match}: ${e.findings ? `ends with ${e.findings.join(', ')}` : 'is refused at its first stdout line (exit 2)'}`, async () => {
      const json = join(dir, `${e.match.replace(/\W+/g, '-')}.json`);
      const args = argsOf(command!);
      // The report's options go before `--`: what follows it is the server's command.
      const dash = args.indexOf('--');
      const run = await runMain([...args.slice(0, dash), ...(e.findings ? ['--json', json, '--out', join(dir, 'repro')] : []), ...args.slice(dash)]);
      if (e.refused) {
        expect(run.code, run.stderr.slice(-2000)).toBe(2);
        const lines = run.stderr.split('\n').filter((l) => l.startsWith('mcp-sim: '));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(e.refused);
        return;
      }
      expect(run.code, run.stderr.slice(-2000)).toBe(1);
      const report = JSON.parse(readFileSync(json, 'utf8')) as { findings: { invariant: string; shrinks: number; rate: { runs: number }; determinism: string }[]; bounds: Record<string, number> };
      expect(report.findings.map((f) => f.invariant)).toEqual(expect.arrayContaining([...e.findings!]));
      // Each re-run would pay the flood again: the wire bound's finding is not shrunk, and rated in 5 runs at most.
      for (const f of report.findings.filter((x) => e.findings!.includes(x.invariant))) {
        expect(f.shrinks).toBe(0);
        expect(f.rate.runs).toBeLessThanOrEqual(5);
        expect(f.determinism).toMatch(/a wire bound's finding: not shrunk/);
      }
      // The bounds it read with are stated in the report.
      expect(report.bounds).toMatchObject({ maxFrameBytes: expect.any(Number), maxNotifications: expect.any(Number), maxNotificationRate: expect.any(Number) });
    }, 300_000);
  }
});
