import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allCommands, cloneLikeFolder, runCommand } from '../../scripts/docCommands.ts';
import { LONG_COMMANDS } from '../../scripts/longDocCommands.ts';

/**
 * The doc commands that run an example server of another language
 * (`node_modules/.cache/mcp-sim/examples/<language>/…`, built by `npm run examples`, which .ci/run
 * does first): each runs as printed when that language's example servers are installed. Without
 * them the test says so and is skipped, never passed in silence. A command the long list gives to
 * another test (one that exits 2 on purpose, a refusal) is that test's.
 */
const root = join(import.meta.dirname, '..', '..');
const EXAMPLES = /node_modules\/\.cache\/mcp-sim\/examples\/(\w+)\//;
const elsewhere = new Set(LONG_COMMANDS.filter((c) => c.by !== 'test/docs/exampleCommands.test.ts').map((c) => c.command));
const commands = allCommands(root).filter((c) => EXAMPLES.test(c.command) && !elsewhere.has(c.command));
const folders: string[] = [];
afterAll(() => folders.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('doc commands on the example servers of other languages', () => {
  it('the README shows at least one (a real run on a Python server)', () => {
    expect(commands.some((c) => c.file === 'README.md' && c.command.includes('examples/python/'))).toBe(true);
  });

  for (const c of commands) {
    const language = EXAMPLES.exec(c.command)![1]!;
    const installed = existsSync(join(root, 'node_modules', '.cache', 'mcp-sim', 'examples', language));
    it.skipIf(!installed)(`${c.file}: ${c.command}${installed ? '' : ` (skipped: the ${language} example servers are not installed; npm run examples)`}`, async () => {
      const dir = cloneLikeFolder(root);
      folders.push(dir);
      const run = await runCommand(root, dir, c.command, 150_000);
      // A verdict (0 clean, 1 a finding), never a usage error; and the report says what it is.
      expect([0, 1], run.output.slice(-2000)).toContain(run.code);
      expect(run.output).toContain('real time (black box)');
      if (run.code === 1) expect(run.output).toMatch(/reproduced \d+\/\d+/);
    }, 180_000);
  }
});
