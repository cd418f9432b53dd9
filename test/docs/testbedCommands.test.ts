import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allCommands, cloneLikeFolder, runCommand } from '../../scripts/docCommands.ts';

/**
 * The doc commands that run a server of the test beds (`node_modules/.cache/mcp-sim/testbeds/
 * <language>/…`, built by `npm run testbeds`, which .ci/run does first): each runs as printed when
 * its test bed is installed. Without it the test says so and is skipped, never passed in silence.
 */
const root = join(import.meta.dirname, '..', '..');
const TESTBED = /node_modules\/\.cache\/mcp-sim\/testbeds\/(\w+)\//;
const commands = allCommands(root).filter((c) => TESTBED.test(c.command));
const folders: string[] = [];
afterAll(() => folders.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('doc commands on the test beds of other languages', () => {
  it('the README shows at least one (a real run on a Python server)', () => {
    expect(commands.some((c) => c.file === 'README.md' && c.command.includes('testbeds/python/'))).toBe(true);
  });

  for (const c of commands) {
    const language = TESTBED.exec(c.command)![1]!;
    const installed = existsSync(join(root, 'node_modules', '.cache', 'mcp-sim', 'testbeds', language));
    it.skipIf(!installed)(`${c.file}: ${c.command}${installed ? '' : ` (skipped: the ${language} test bed is not installed; npm run testbeds)`}`, async () => {
      const dir = cloneLikeFolder(root);
      folders.push(dir);
      const run = await runCommand(root, dir, c.command, 150_000);
      // A verdict (0 clean, 1 a finding), never a usage error; and the report says what it is.
      expect([0, 1], run.output.slice(-2000)).toContain(run.code);
      expect(run.output).toContain('black box, real time');
      if (run.code === 1) expect(run.output).toMatch(/reproduced \d+\/\d+/);
    }, 180_000);
  }
});
