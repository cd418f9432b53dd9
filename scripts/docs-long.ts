// `npm run docs:long`: the long commands of README.md and docs/ that no other script or test runs
// (scripts/longDocCommands.ts names them `npm run docs:long`), each as printed, in a folder like
// the clone; exits 1 when one fails (exit code other than 0 or 1, the codes of a verdict).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cloneLikeFolder, runCommand } from './docCommands.ts';
import { LONG_COMMANDS } from './longDocCommands.ts';

const root = join(import.meta.dirname, '..');
const dir = cloneLikeFolder(root);
let failed = 0;
try {
  for (const { command } of LONG_COMMANDS.filter((c) => c.by === 'npm run docs:long')) {
    const run = await runCommand(root, dir, command, 30 * 60_000);
    const ok = run.code === 0 || run.code === 1;
    if (!ok) failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${(run.ms / 1000).toFixed(1)} s  exit ${run.code}  ${command}${ok ? '' : `\n${run.output.slice(-2000)}`}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
