import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runMain } from '../cli/runMain.ts';

const run = promisify(execFile);

/** Runs a printed `npx mcp-sim …` command in a fresh process, as a user pasting it would. */
async function fresh(command: string): Promise<{ code: number; stdout: string }> {
  const args = command.replace(/^npx mcp-sim /, '').split(' ');
  try {
    const { stdout } = await run(process.execPath, ['bin/mcp-sim.js', ...args], { env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('mcp-sim fuzz: the command', () => {
  it('fuzz: prints the seed first, flags a faulty server with exit 1, and every replay command it prints reproduces its finding in a fresh process', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mcp-sim-fuzz-'));
    const r = await runMain(['check', 'examples/servers/faulty/progressNotIncreasing.ts', '--runs', '40', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.lines[0]).toBe('mcp-sim check examples/servers/faulty/progressNotIncreasing.ts  seed=20261130  (in process, virtual time)');
    expect(r.stdout).toMatch(/VIOLATION progress\.increasing/);
    expect(r.stdout).toMatch(/tool {7}crawl/);
    const commands = r.lines.filter((l) => l.startsWith('  replay ')).map((l) => l.replace(/^ {2}replay {5}/, ''));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      const replayed = await fresh(command);
      expect(replayed.stdout, command).toMatch(/reproduced: progress\.increasing/);
      expect(replayed.stdout).not.toMatch(/NOT reproduced/);
      expect(replayed.code, command).toBe(0);
    }
  }, 60_000);

  it('fuzz: every replay command docs/fuzz-findings.md cites reproduces its finding in a fresh process', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync('docs/fuzz-findings.md', 'utf8');
    const cited = [...doc.matchAll(/^npx mcp-sim replay \S+ --seed \d+ --case \d+ --expect [a-z.-]+$/gm)].map((m) => m[0]);
    // Servers that `npm run fuzz:testbed` installs from the registry (never `npm test`) are
    // replayed by that script; every other cited module must be here.
    const { existsSync } = await import('node:fs');
    const moduleOf = (command: string) => command.split(' ')[3]!;
    const commands = cited.filter((c) => existsSync(moduleOf(c)));
    expect(cited.filter((c) => !commands.includes(c)).every((c) => moduleOf(c).startsWith('node_modules/.cache/mcp-sim/testbed/'))).toBe(true);
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const command of commands) {
      const replayed = await fresh(command);
      const expected = / --expect ([a-z.-]+)$/.exec(command)![1]!;
      expect(replayed.stdout, command).toContain(`reproduced: ${expected}`);
      expect(replayed.code, command).toBe(0);
    }
  }, 60_000);

  it('fuzz: a correct server passes with exit 0', async () => {
    const r = await runMain(['check', 'examples/servers/crawler.ts', '--runs', '40']);
    expect(r.code).toBe(0);
    expect(r.lines.at(-1)).toMatch(/^PASS examples\/servers\/crawler\.ts/);
  });

  it('fuzz --junit --report: the JUnit case of a finding on the server fails with its replay; the Markdown lists it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-fuzz-views-'));
    const r = await runMain(['check', 'examples/servers/faulty/swallowedAbort.ts', '--runs', '20', '--no-shrink', '--junit', join(dir, 'fuzz.xml'), '--report', join(dir, 'fuzz.md')]);
    expect(r.code).toBe(1);
    const { readFileSync } = await import('node:fs');
    const xml = readFileSync(join(dir, 'fuzz.xml'), 'utf8');
    expect(xml).toMatch(/<testcase classname="mcp-sim\.fuzz\.cancel" name="cancel\.abort-swallowed"[^>]*>\s*<failure message="after the client cancelled, the abort reached tool &quot;crawl&quot; \(its fetch rejected with the abort\), and its callback caught it and returned a normal result/);
    expect(xml).toContain('--case 0 --expect cancel.abort-swallowed');
    const md = readFileSync(join(dir, 'fuzz.md'), 'utf8');
    expect(md).toMatch(/^# mcp-sim check: examples\/servers\/faulty\/swallowedAbort\.ts\n\n\*\*FAIL\*\*/);
    expect(md).toContain('## `cancel.abort-swallowed` (note, ');
    // --fail-on should: a note no longer fails, and its JUnit case passes.
    const lenient = await runMain(['check', 'examples/servers/faulty/swallowedAbort.ts', '--runs', '20', '--no-shrink', '--fail-on', 'should', '--junit', join(dir, 'lenient.xml')]);
    expect(lenient.code).toBe(0);
    expect(readFileSync(join(dir, 'lenient.xml'), 'utf8')).not.toContain('<failure');
  });

  it('fuzz on a 2.x server: flags it, names @modelcontextprotocol/server, and every replay command it prints reproduces its finding in a fresh process', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mcp-sim-fuzz-v2-'));
    const r = await runMain(['check', 'examples/servers/v2/faulty/fetchWithoutSignal.ts', '--runs', '30', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/NOTE cancel\.reaches-work/);
    expect(r.stdout).toContain('@modelcontextprotocol/server@2.');
    const commands = r.lines.filter((l) => l.startsWith('  replay ')).map((l) => l.replace(/^ {2}replay {5}/, ''));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      const replayed = await fresh(command);
      expect(replayed.stdout, command).toMatch(/reproduced: cancel\.reaches-work/);
      expect(replayed.stdout).not.toMatch(/NOT reproduced/);
      expect(replayed.code, command).toBe(0);
    }
  }, 60_000);

  it('fuzz --expect: a replay that does not show the expected finding exits 3', async () => {
    const r = await runMain(['replay', 'examples/servers/crawler.ts', '--case', '0', '--expect', 'cancel.zombie-work']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/NOT reproduced: cancel\.zombie-work/);
  });

  const errors: readonly (readonly [what: string, module: string, message: RegExp])[] = [
    ['a module that does not exist', 'examples/servers/nope.ts', /^mcp-sim check: module examples\/servers\/nope\.ts not found/],
    ['a module with no factory or server', 'test/fuzz/fixtures/noServer.ts', /has no server factory .* exports: name, version/],
    ['a factory that throws', 'test/fuzz/fixtures/throwingFactory.ts', /the server factory of .* threw: API_KEY is not set/],
    ['a factory that returns no MCP server', 'test/fuzz/fixtures/notAServer.ts', /returned an object with keys tools, start, which is not an MCP server/],
    ['a server built on a copy the module does not resolve', 'test/fuzz/fixtures/aliasSdkServer.ts', /not built on @modelcontextprotocol\/sdk@.* the SDK it resolves: an SDK bundled into the module/],
  ];
  for (const [what, module, message] of errors) {
    it(`fuzz: ${what} is one line on stderr and exit 2`, async () => {
      const r = await runMain(['check', module]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    });
  }

  it('fuzz: a tool whose schema cannot be generated is reported and skipped; the other tools are still fuzzed', async () => {
    const r = await runMain(['check', 'test/fuzz/fixtures/badSchema.ts', '--runs', '20']);
    expect(r.stdout).toMatch(/skipped +impossible: its input schema cannot be generated/);
    expect(r.stdout).toMatch(/tools fuzzed: good/);
    expect(r.code).toBe(0);
  });

  it('fuzz --args: fixed argument sets are used, and arguments the schema rejects are one line and exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-args-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ crawl: [{ urls: ['https://example.com/'] }] }));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ crawl: [{ urls: 'not a list' }] }));
    const good = await runMain(['check', 'examples/servers/faulty/zombieWork.ts', '--runs', '20', '--no-shrink', '--args', join(dir, 'good.json'), '--json', join(dir, 'report.json')]);
    expect(good.code).toBe(1);
    const { readFileSync } = await import('node:fs');
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { findings: { call?: { arguments: unknown } }[] };
    expect(report.findings.filter((f) => f.call).every((f) => JSON.stringify(f.call!.arguments) === '{"urls":["https://example.com/"]}')).toBe(true);
    const bad = await runMain(['check', 'examples/servers/crawler.ts', '--args', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--args crawl\[0\] is not valid for the tool's input schema/);
    // The printed replay of a case drawn with --args carries it, and replay takes it for a module's case.
    const printed = good.lines.find((l) => l.includes(' --case '))!.replace(/^ {2}replay {5}/, '');
    expect(printed).toMatch(/^npx mcp-sim replay examples\/servers\/faulty\/zombieWork\.ts --args \S+ --seed 20261130 --case \d+ --expect /);
    expect((await fresh(printed)).code, printed).toBe(0);
  }, 60_000);

  it("replay <module> --config: a module's case with its factory config; --config and --args are refused for the SDK's case (exit 2)", async () => {
    const r = await runMain(['replay', 'examples/servers/lowLevel.ts', '--config', '{"stepMs":5}', '--seed', '20261130', '--case', '0']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^trace hash /m);
    const refused = await runMain(['replay', '--seed', '20261130', '--case', '0', '--config', '{}']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--config is for a case of a server module's campaign/);
  });
});
