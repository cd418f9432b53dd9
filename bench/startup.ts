// `npm run bench:startup [-- --rounds 9] [--clone]`: how long each command takes to start, from
// the compiled package as it is installed (bin/ + dist/, no src/), against `node -e 0` measured
// in the same rounds. Every command runs in a fresh process, the commands interleaved round by
// round, so a busy moment of the machine falls on all of them; the table gives medians and the
// ratio to node's own start.
//
// The installed layout is a temporary folder holding what `npm pack` ships (package.json, bin/,
// dist/, properties/baselines/, schemas/) and a link to this clone's node_modules: the same
// files `scripts/pack-check.sh` installs from the tarball, without a registry round trip.
// `--clone` also times `node bin/mcp-sim.js` in the clone itself (TypeScript through tsx).
// `--against <dir>` times another built tree (its dist/, e.g. an older revision after
// `npm run build` there) the same way, in the same rounds, and gives each command's ratio.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** Rounds by default: odd, so the median is one measured value. */
const DEFAULT_ROUNDS = 9;

/** The targets of issue 24: `--version` and `--help` within 3× node's start, `check --runs 1` within 0.6 s. */
const TARGET_RATIO = 3;
const TARGET_CHECK_SECONDS = 0.6;

interface Probe {
  readonly name: string;
  readonly argv: readonly string[];
  readonly cwd: 'installed' | 'clone' | 'against';
  /** Exit codes the command ends with on success (check exits 1 on findings beyond the baseline). */
  readonly exits: readonly number[];
}

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { rounds: { type: 'string' }, clone: { type: 'boolean' }, against: { type: 'string' } } });
const rounds = values.rounds === undefined ? DEFAULT_ROUNDS : Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(`bench/startup: --rounds ${values.rounds} is not a whole number ≥ 1\n`);
  process.exit(2);
}

if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  process.stderr.write('bench/startup: no dist/ yet, building it (npm run build)\n');
  spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
/** The installed layout of the built tree `tree`, in a temporary folder removed at exit. */
function installedLayout(tree: string): string {
  if (!existsSync(join(tree, 'dist', 'cli', 'main.js'))) {
    process.stderr.write(`bench/startup: ${tree} has no dist/ (npm run build there first)\n`);
    process.exit(2);
  }
  const folder = mkdtempSync(join(tmpdir(), 'mcp-sim-startup-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  for (const part of ['package.json', 'bin', 'dist', 'properties/baselines', 'schemas']) cpSync(join(tree, part), join(folder, part), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'));
  return folder;
}
const installed = installedLayout(root);
const against = values.against === undefined ? undefined : installedLayout(resolve(values.against));

const cli = (...args: string[]) => ['bin/mcp-sim.js', ...args];
const probes: Probe[] = [
  { name: 'node -e 0', argv: ['-e', '0'], cwd: 'installed', exits: [0] },
  { name: '--version', argv: cli('--version'), cwd: 'installed', exits: [0] },
  { name: '--help', argv: cli('--help'), cwd: 'installed', exits: [0] },
  { name: 'fuzz --help', argv: cli('fuzz', '--help'), cwd: 'installed', exits: [0] },
  { name: 'check --runs 1 --no-shrink', argv: cli('check', '--runs', '1', '--no-shrink', '--quiet'), cwd: 'installed', exits: [0, 1] },
  { name: 'check --runs 1', argv: cli('check', '--runs', '1', '--quiet'), cwd: 'installed', exits: [0, 1] },
  ...(values.clone ? [{ name: '--version (clone, tsx)', argv: cli('--version'), cwd: 'clone', exits: [0] } as const] : []),
];
if (against) {
  for (const probe of probes.filter((p) => p.cwd === 'installed' && p.name !== 'node -e 0')) probes.push({ ...probe, name: `against: ${probe.name}`, cwd: 'against' });
}
const folderOf = { installed, clone: root, against: against ?? installed } as const;

const env = { ...process.env, NO_COLOR: '1' };
const times = new Map<string, number[]>(probes.map((p) => [p.name, []]));
for (let round = 0; round < rounds; round++) {
  for (const probe of probes) {
    const started = performance.now();
    const result = spawnSync(process.execPath, probe.argv as string[], { cwd: folderOf[probe.cwd], env, encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    if (!probe.exits.includes(result.status ?? -1)) {
      process.stderr.write(`bench/startup: ${probe.name} exited ${result.status}\n${result.stderr}`);
      process.exit(2);
    }
    times.get(probe.name)!.push(seconds);
  }
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const node = median(times.get('node -e 0')!);
console.log(`start-up, installed layout (bin/ + dist/), node ${process.version}, ${rounds} interleaved rounds, medians\n`);
console.log(`| command | median | min | × node -e 0 | target |${against ? ' against / this |' : ''}`);
console.log(`|---|---|---|---|---|${against ? '---|' : ''}`);
for (const probe of probes.filter((p) => p.cwd !== 'against')) {
  const xs = times.get(probe.name)!;
  const m = median(xs);
  const ratio = m / node;
  const target =
    probe.name === '--version' || probe.name === '--help'
      ? `≤ ${TARGET_RATIO}× ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`
      : probe.name === 'check --runs 1'
        ? `≤ ${TARGET_CHECK_SECONDS} s ${m <= TARGET_CHECK_SECONDS ? 'met' : 'NOT met'}`
        : '';
  const old = times.get(`against: ${probe.name}`);
  const versus = against ? (old ? ` ${(median(old) / m).toFixed(2)}× (${median(old).toFixed(3)} s) |` : ' |') : '';
  console.log(`| \`${probe.name}\` | ${m.toFixed(3)} s | ${Math.min(...xs).toFixed(3)} s | ${ratio.toFixed(2)}× | ${target} |${versus}`);
}
