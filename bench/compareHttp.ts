/**
 * The http profile against the memory profile, per 1-request scenario (the harness bench's
 * `http profile: 1-request scenario` and `harness: 1-request scenario`), in this tree and
 * optionally in another checkout, all in one process, interleaved batch by batch:
 * `node --import tsx bench/compareHttp.ts [--tree DIR] [--batch 100] [--rounds 12]`.
 *
 * Each round runs a batch of every task in turn (this tree's memory and http, then the other
 * tree's), so a busy moment of the shared machine falls on all of them alike; the figures are
 * medians over the rounds of the time per scenario, and their ratios. `--tree` is read only (it
 * needs a node_modules; a copy whose node_modules links this tree's loads the same SDK).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';

interface Flags {
  tree?: string;
  batch: string;
  rounds: string;
}

const flags = new Command()
  .name('bench/compareHttp.ts')
  .option('--tree <dir>', 'another checkout to time in the same rounds (read only)')
  .option('--batch <n>', 'scenarios per task per round', '100')
  .option('--rounds <n>', 'rounds (the figures are medians over them)', '12')
  .parse()
  .opts<Flags>();

type Run = (scenario: unknown, options: { sdk: unknown }) => Promise<unknown>;

interface Tree {
  readonly name: string;
  readonly run: Run;
  readonly sdk: unknown;
}

async function load(name: string, dir: string): Promise<Tree> {
  const at = (path: string) => pathToFileURL(resolve(dir, path)).href;
  const sim = (await import(at('src/sim/index.ts'))) as { runScenario: Run };
  const load = (await import(at('src/sdk/load.ts'))) as { defaultSdk: () => Promise<unknown> };
  return { name, run: sim.runScenario, sdk: await load.defaultSdk() };
}

/** The harness bench's scenarios: one tool call answered after one progress notification. */
const memory = {
  profile: 'memory',
  handlers: { tool: { steps: [{ kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'honour' } },
  actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: { onprogress: true } }],
};
const http = { ...memory, profile: 'http', http: { stateful: true, response: 'sse', eventStore: false } };

const trees = [await load('this tree', '.')];
if (flags.tree) trees.push(await load(flags.tree, flags.tree));
const batch = Number(flags.batch);
const rounds = Number(flags.rounds);
const tasks = trees.flatMap((t) => [
  { key: `${t.name}: memory`, tree: t, scenario: memory },
  { key: `${t.name}: http`, tree: t, scenario: http },
]);
const samples = new Map<string, number[]>(tasks.map((t) => [t.key, []]));

// Warm-up: every task a batch, untimed.
for (const t of tasks) for (let i = 0; i < batch; i++) await t.tree.run(t.scenario, { sdk: t.tree.sdk });
for (let r = 0; r < rounds; r++) {
  for (const t of r % 2 === 0 ? tasks : [...tasks].reverse()) {
    const started = performance.now();
    for (let i = 0; i < batch; i++) await t.tree.run(t.scenario, { sdk: t.tree.sdk });
    samples.get(t.key)!.push((performance.now() - started) / batch);
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (key: string) => median(samples.get(key)!);
console.log(`interleaved batches of ${batch}, medians of ${rounds} rounds (ms per scenario)`);
for (const t of trees) {
  const m = ms(`${t.name}: memory`);
  const h = ms(`${t.name}: http`);
  console.log(`${t.name}: memory ${m.toFixed(3)} ms, http ${h.toFixed(3)} ms, http / memory ${(h / m).toFixed(2)}×`);
}
if (trees.length === 2) {
  const [a, b] = trees as [Tree, Tree];
  console.log(`http, this tree / ${b.name}: ${(ms(`${a.name}: http`) / ms(`${b.name}: http`)).toFixed(3)}×`);
  console.log(`memory, this tree / ${b.name}: ${(ms(`${a.name}: memory`) / ms(`${b.name}: memory`)).toFixed(3)}×`);
}
