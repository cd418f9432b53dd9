import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { allCommands, cloneLikeFolder, runCommand, type DocCommand } from '../../scripts/docCommands.ts';

/**
 * The README's "Check your server": each language's block runs as printed, in a folder like the
 * clone, on the server of examples/your-server/<language>/, and finds the faulty tool (`resize`)
 * while the correct one (`count`) stays out of the author's findings.
 *
 * Nothing is fetched while it runs. The Python block's `pip install mcp==<pin>` runs as printed,
 * but offline: PIP_NO_INDEX and PIP_FIND_LINKS point pip at the wheels `npm run examples` kept
 * (examples/servers/python/install.sh, the same pins), so the venv it makes is the one a user
 * gets from PyPI. The Go block's `go run .` runs with GOPROXY=off and -mod=readonly: its modules
 * are the example servers' own pins, in the module cache since `npm run examples`. Where those
 * are missing the test says so and is skipped, never passed in silence. The Rust and Java blocks
 * run the builds of examples/your-server/rust and examples/your-server/java that `npm run
 * examples` keeps (examples/servers/rust/install.sh, examples/servers/java/install.sh).
 */
const root = join(import.meta.dirname, '..', '..');
const examples = process.env.MCP_SIM_EXAMPLES_CACHE ?? join(root, 'node_modules', '.cache', 'mcp-sim', 'examples');
const wheels = join(examples, 'python', 'wheels');
const readme = allCommands(root).filter((c) => c.file === 'README.md');
const folders: string[] = [];
afterAll(() => folders.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The README block whose commands name `marker`, in order. */
function blockOf(marker: string): DocCommand[] {
  const one = readme.find((c) => c.command.includes(marker));
  expect(one, `README.md shows no command with ${marker}`).toBeDefined();
  return readme.filter((c) => c.block === one!.block);
}

/** Runs a block's commands in order in a folder like the clone, with `env` added; the last one's run. */
async function runBlock(block: readonly DocCommand[], env: Record<string, string>) {
  const dir = cloneLikeFolder(root);
  folders.push(dir);
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    let last;
    for (const c of block) {
      last = await runCommand(root, dir, c.command, 240_000);
      if (c !== block.at(-1)) expect(last.code, `${c.command}\n${last.output.slice(-2000)}`).toBe(0);
    }
    // runCommand sets FORCE_COLOR=0, which picocolors reads as "colour on": read the text without it.
    return { ...last!, output: stripVTControlCharacters(last!.output) };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The author's findings of a real-time report: what comes before the SDK's own and the verdict. */
const authorPart = (output: string) => output.slice(output.search(/^(VIOLATION|WARNING|NOTE) /m)).split(/^what the server's SDK does on its own|^(FAIL|PASS) /m)[0]!;

describe("the README's Check your server, as printed", () => {
  it.skipIf(!existsSync(join(wheels, '.mcp-sim-requirements')))(
    `Python: a venv of the user's own, then check -- .venv/bin/python server.py${existsSync(wheels) ? '' : ' (skipped: no pinned wheels; npm run examples)'}`,
    async () => {
      const run = await runBlock(blockOf('examples/your-server/python/server.py'), { PIP_NO_INDEX: '1', PIP_FIND_LINKS: wheels });
      expect(run.code, run.output.slice(-3000)).toBe(1);
      expect(run.output).toContain('real time (black box)');
      const mine = authorPart(run.output);
      expect(mine).toMatch(/progress\.(increasing|after-cancel)/);
      expect(mine).toMatch(/c\d+: resize /);
      // The correct tool is never the one blamed (a minimal case that could not be shrunk may still hold a call of it beside the faulty one).
      expect(mine).toMatch(/tool resize\)/);
      expect(mine).not.toMatch(/tool count\)/);
    },
    300_000,
  );

  it.skipIf(!existsSync(join(examples, 'go', 'bin', 'server')))('Go: check --cwd <module> -- go run .', async () => {
    const run = await runBlock(blockOf('examples/your-server/go'), { GOPROXY: 'off', GOFLAGS: '-mod=readonly' });
    expect(run.code, run.output.slice(-3000)).toBe(1);
    const mine = authorPart(run.output);
    expect(mine).toMatch(/^VIOLATION progress\.increasing/m);
    expect(mine).toMatch(/c\d+: resize /);
    expect(mine).not.toMatch(/c\d+: count /);
  }, 300_000);

  it.skipIf(!existsSync(join(examples, 'rust', 'target', 'debug', 'photos')))('Rust: check -- <the rmcp binary cargo built>', async () => {
    const run = await runBlock(blockOf('examples/rust/target/debug/photos'), {});
    expect(run.code, run.output.slice(-3000)).toBe(1);
    const mine = authorPart(run.output);
    expect(mine).toMatch(/^VIOLATION progress\.increasing/m);
    expect(mine).toMatch(/fix \(Rust, tool resize\)/);
    expect(mine).toMatch(/c\d+: resize /);
    // As for Python: a minimal case that could not be shrunk may hold a call of count beside resize; count is never blamed.
    expect(mine).not.toMatch(/tool count\)/);
  }, 300_000);

  it.skipIf(!existsSync(join(examples, 'java', 'photos', 'photos.jar')))('Java: check -- java -jar <the jar mvn package built>', async () => {
    const run = await runBlock(blockOf('examples/java/photos/photos.jar'), {});
    expect(run.code, run.output.slice(-3000)).toBe(1);
    const mine = authorPart(run.output);
    // Confirmed findings only: one a fresh process did not show again (UNCONFIRMED, a JVM slow under load) blames no one.
    const findings = mine.split(/^(?=(?:VIOLATION|WARNING|NOTE|UNCONFIRMED|KNOWN) )/m).filter((f) => /^(VIOLATION|WARNING|NOTE) /.test(f));
    // The violation is resize's rounded percentage, and only resize's.
    const violations = findings.filter((f) => f.startsWith('VIOLATION '));
    expect(violations.some((f) => /^VIOLATION progress\.increasing/.test(f) && /fix \(Java, tool resize\)/.test(f))).toBe(true);
    expect(violations.filter((f) => /tool count\)/.test(f))).toEqual([]);
    // The Java SDK (2.1.0) has no server-side cancellation: a cancelled count runs on and its result is
    // sent, so the cancel family may name count (as the README says); nothing else may.
    const onCount = findings.filter((f) => /tool count\)/.test(f)).map((f) => f.split(' ')[1]);
    expect(onCount.filter((id) => id !== 'cancel.no-response-after' && id !== 'progress.after-cancel')).toEqual([]);
  }, 300_000);

  it('TypeScript: check server.ts (the module, in process)', async () => {
    const run = await runBlock(blockOf('examples/your-server/typescript/server.ts'), {});
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(run.output).toContain('(in process, virtual time)');
    expect(run.output).toMatch(/your handler of tool "resize"/);
    expect(run.output).not.toMatch(/your handler of tool "count"/);
    expect(run.output).toMatch(/^FAIL examples\/your-server\/typescript\/server\.ts: .*progress\.increasing/m);
  }, 300_000);
});
