/**
 * The campaign figure of two revisions, measured in one run on one machine:
 * `node --import tsx bench/compareCampaign.ts --against <git revision> [--runs 1500] [--rounds 3]`,
 * or `--tree <dir>` for a checkout that is already there (read only: e.g. /work/main).
 * `--default` times the whole `check` process instead, as users run it: the default campaign
 * (2,000 runs of memory and http, shrinking on), wall time from spawn to exit, and the ratio.
 *
 * Why a second checkout: the per-run cost of `check` is a property of the whole harness (fake
 * clock, sandbox, world, oracle, generator), so the only fair "before" is the old tree itself.
 * It is checked out into a temporary git worktree that borrows this tree's node_modules, and the
 * two `check` campaigns alternate round by round (machines are noisy: compare medians of one run).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

interface Flags {
  against?: string;
  tree?: string;
  default?: boolean;
  runs: string;
  rounds: string;
  profiles: string;
  installed?: boolean;
}

const flags = new Command()
  .name('bench/compareCampaign.ts')
  .option('--against <revision>', 'the git revision to compare with (for example a commit before a change)')
  .option('--tree <dir>', 'or an existing checkout to compare with (with node_modules), used read only')
  .option('--default', 'time the whole default `check` process (shrinking on, both profiles) instead of the runs/s of --no-shrink')
  .option('--runs <n>', 'runs per campaign (with --default: only if given)', '1500')
  .option('--rounds <n>', 'campaigns per tree, alternating', '3')
  .option('--profiles <list>', 'transport profiles of the campaign', 'memory')
  .option('--installed', "with --default: run each tree's compiled dist/ (as the installed package runs; `npm run build` in both first), not src/ through tsx")
  .parse()
  .opts<Flags>();

/** Runs/s of one `check` campaign in `tree`, read from its report line "N runs in S s (R runs/s)". */
function campaignRate(tree: string): number {
  const run = spawnSync(
    process.execPath,
    ['bin/mcp-sim.js', 'check', '--profiles', flags.profiles, '--runs', flags.runs, '--no-shrink'],
    { cwd: tree, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  const m = /\(([\d.]+) runs\/s\)/.exec(run.stdout);
  if (!m) throw new Error(`compareCampaign: no "runs/s" in the output of check in ${tree}:\n${run.stdout}\n${run.stderr}`);
  return Number(m[1]);
}

/** Wall seconds of one whole `check` process in `tree` (the default campaign unless --runs is given). */
function checkWallSeconds(tree: string, runs: string | undefined): number {
  const started = performance.now();
  // The installed package runs dist/cli/main.js; a clone's bin runs src/ through tsx.
  const entry = flags.installed
    ? ['--input-type=module', '-e', 'const { main } = await import(process.argv[1]); process.exitCode = await main(["node", "mcp-sim", ...process.argv.slice(2)]);', join(tree, 'dist/cli/main.js')]
    : ['bin/mcp-sim.js'];
  const run = spawnSync(process.execPath, [...entry, 'check', '--quiet', ...(runs ? ['--runs', runs] : [])], {
    cwd: tree,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`compareCampaign: check in ${tree} exited ${run.status}:\n${run.stderr}`);
  return (performance.now() - started) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!flags.against === !flags.tree) throw new Error('compareCampaign: give either --against <revision> or --tree <dir>');
const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-compare-'));
const old = flags.tree ? resolve(flags.tree) : join(scratch, 'tree');
const label = flags.against ?? old;
if (flags.against) execFileSync('git', ['worktree', 'add', '--detach', old, flags.against], { cwd: ROOT, stdio: 'ignore' });
try {
  if (!existsSync(join(old, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(old, 'node_modules'));
  if (flags.default) {
    const runs = process.argv.includes('--runs') ? flags.runs : undefined;
    const walls = { before: [] as number[], after: [] as number[] };
    for (let round = 0; round < Number(flags.rounds); round++) {
      walls.before.push(checkWallSeconds(old, runs));
      walls.after.push(checkWallSeconds(ROOT, runs));
      console.log(`round ${round + 1}: ${label} ${walls.before.at(-1)!.toFixed(1)} s, this tree ${walls.after.at(-1)!.toFixed(1)} s`);
    }
    const before = median(walls.before);
    const after = median(walls.after);
    console.log(`check${runs ? ` --runs ${runs}` : ''} (whole process${flags.installed ? ', compiled dist/' : ', src/ through tsx'}): ${label} ${before.toFixed(1)} s, this tree ${after.toFixed(1)} s (medians of ${flags.rounds}); ${(before / after).toFixed(2)}× shorter`);
  } else {
    const rates = { before: [] as number[], after: [] as number[] };
    for (let round = 0; round < Number(flags.rounds); round++) {
      rates.before.push(campaignRate(old));
      rates.after.push(campaignRate(ROOT));
      console.log(`round ${round + 1}: ${label} ${rates.before.at(-1)} runs/s, this tree ${rates.after.at(-1)} runs/s`);
    }
    const before = median(rates.before);
    const after = median(rates.after);
    console.log(
      `check --profiles ${flags.profiles} --runs ${flags.runs} --no-shrink: ${label} ${before} runs/s, ` +
        `this tree ${after} runs/s (medians of ${flags.rounds}); ${(after / before).toFixed(2)}×`,
    );
  }
} finally {
  if (flags.against) execFileSync('git', ['worktree', 'remove', '--force', old], { cwd: ROOT, stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
