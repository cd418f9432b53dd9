import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allCommands, cloneLikeFolder, documents, runCommand, type DocCommand } from '../../scripts/docCommands.ts';
import { LONG_COMMANDS } from '../../scripts/longDocCommands.ts';

/**
 * Every command README.md and docs/ show runs as printed: the short ones here (each within its
 * budget, exit 0 or 1: a verdict, not a usage error), the long ones listed with what runs them.
 */
const root = join(import.meta.dirname, '..', '..');
const commands = allCommands(root);
const long = new Set(LONG_COMMANDS.map((c) => c.command));
const short = commands.filter((c) => !long.has(c.command));
const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
/** One command's budget, and the whole test's (2 shared cores). */
const COMMAND_MS = 30_000;
const folders: string[] = [];
afterAll(() => folders.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the commands of README.md and docs/', () => {
  it('each is run here or listed as long with an npm script, a test or .ci/run that runs it; no long entry is stale', () => {
    expect(commands.length).toBeGreaterThan(20);
    for (const c of LONG_COMMANDS) {
      const npm = /^npm run ([\w:-]+)$/.exec(c.by);
      if (npm) expect(scripts, `${c.command}: by ${c.by}`).toContain(npm[1]);
      else expect(existsSync(join(root, c.by)), `${c.command}: by ${c.by}`).toBe(true);
      expect(commands.map((d) => d.command), `listed as long, but no document shows it: ${c.command}`).toContain(c.command);
    }
    // What is left runs below; a template (<…>) there would fail: it belongs in the list.
    for (const c of short) expect(c.command, `${c.file}`).not.toMatch(/<[^>]+>/);
  });

  it('the short ones run as printed, each block in order in a folder like the clone', async () => {
    const byBlock = new Map<string, DocCommand[]>();
    for (const c of short) byBlock.set(`${c.file}#${c.block}`, [...(byBlock.get(`${c.file}#${c.block}`) ?? []), c]);
    const failures: string[] = [];
    const times: string[] = [];
    const runBlock = async (block: DocCommand[]) => {
      const dir = cloneLikeFolder(root);
      folders.push(dir);
      for (const c of block) {
        const run = await runCommand(root, dir, c.command, COMMAND_MS);
        times.push(`${(run.ms / 1000).toFixed(1)} s ${c.command}`);
        if (run.timedOut || (run.code !== 0 && run.code !== 1)) failures.push(`${c.file}: ${c.command}\n  exit ${run.code}${run.timedOut ? ` (over ${COMMAND_MS / 1000} s)` : ''}\n${run.output.slice(-1500)}`);
      }
    };
    // Two blocks at a time: the machine has two cores.
    const queue = [...byBlock.values()];
    await Promise.all([0, 1].map(async () => {
      for (let b = queue.shift(); b; b = queue.shift()) await runBlock(b);
    }));
    expect(failures, times.join('\n')).toEqual([]);
  }, 150_000);

  it('every relative link of README.md and docs/ names a file that exists', () => {
    const broken: string[] = [];
    for (const file of documents(root)) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(root, dirname(file), target))) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
