/**
 * The http profile's per-scenario cost against the memory profile's (the harness bench's
 * `http profile: 1-request scenario` against `harness: 1-request scenario`), and the network
 * code of another revision against this tree's, in one process, interleaved:
 * `node --import tsx bench/compareHttp.ts [--against <git revision>] [--batch 100] [--rounds 12]`.
 *
 * Why not two checkouts in one process: two copies of the whole harness driving one SDK made
 * the copy loaded second measurably slower on the very same code. So only `src/sim/http`
 * differs: a temporary copy of this tree gets the revision's `src/sim/http` beside its own,
 * and a shim builds each run's network from one or the other (the revision's `HttpNetwork` must
 * take the same constructor arguments). Every other module, and the SDK, is one copy.
 *
 * Each round runs a batch of every task in turn (the memory profile, http with this tree's
 * network, http with the revision's), in alternating order; the figures are medians over the
 * rounds of the time per scenario (wall and this process's CPU time), and medians of the
 * per-round ratios, which a busy moment of the shared machine disturbs less. Batches of 100:
 * garbage an http batch leaves is collected in the next batch, so short batches of the memory
 * profile look cheaper than they are.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

interface Flags {
  against?: string;
  batch: string;
  rounds: string;
}

const flags = new Command()
  .name('bench/compareHttp.ts')
  .option('--against <revision>', "a git revision whose src/sim/http to time against this tree's")
  .option('--batch <n>', 'scenarios per task per round', '100')
  .option('--rounds <n>', 'rounds (the figures are medians over them)', '12')
  .parse()
  .opts<Flags>();

/** A copy of this tree's src with the revision's network beside it, and the shim choosing between them. */
function abTree(revision: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-http-ab-'));
  for (const entry of ['src', 'package.json', 'tsconfig.json']) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const old = join(dir, 'old');
  execFileSync('mkdir', ['-p', old]);
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${revision}" src/sim/http | tar -x -C "${old}"`]);
  renameSync(join(old, 'src/sim/http'), join(dir, 'src/sim/http-old'));
  cpSync(join(dir, 'src/sim/http'), join(dir, 'src/sim/http-new'), { recursive: true });
  writeFileSync(
    join(dir, 'src/sim/http/HttpNetwork.ts'),
    [
      "import * as Old from '../http-old/HttpNetwork.ts';",
      "import * as New from '../http-new/HttpNetwork.ts';",
      "export type { HttpHost, HttpDelivery, OpenExchange } from '../http-new/HttpNetwork.ts';",
      'export const MCP_URL = New.MCP_URL;',
      'export const describeHttpDelivery = New.describeHttpDelivery;',
      'export type HttpNetwork = New.HttpNetwork;',
      'export const HttpNetwork = function (...args: ConstructorParameters<typeof New.HttpNetwork>) {',
      '  return (globalThis as { __mcpSimOldNetwork?: boolean }).__mcpSimOldNetwork ? new Old.HttpNetwork(...args) : new New.HttpNetwork(...args);',
      '} as unknown as typeof New.HttpNetwork;',
      '',
    ].join('\n'),
  );
  return dir;
}

type Run = (scenario: unknown, options: { sdk: unknown }) => Promise<unknown>;

/** The harness bench's scenarios: one tool call answered after one progress notification. */
const memory = {
  profile: 'memory',
  handlers: { tool: { steps: [{ kind: 'progress', progress: 1 }], end: { kind: 'result' }, onAbort: 'honour' } },
  actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: { onprogress: true } }],
};
const http = { ...memory, profile: 'http', http: { stateful: true, response: 'sse', eventStore: false } };

const dir = flags.against ? abTree(flags.against) : ROOT;
try {
  const at = (path: string) => pathToFileURL(join(dir, path)).href;
  const { runScenario } = (await import(at('src/sim/index.ts'))) as { runScenario: Run };
  const { defaultSdk } = (await import(at('src/sdk/load.ts'))) as { defaultSdk: () => Promise<unknown> };
  const sdk = await defaultSdk();
  const flag = globalThis as { __mcpSimOldNetwork?: boolean };
  // The bare SDK's two exchanges (this tree's bench code on the same SDK object): the floor of the ratio.
  const bare = (await import('./harness.bench.ts')) as typeof import('./harness.bench.ts');
  const simulated = (scenario: unknown) => () => runScenario(scenario, { sdk });
  const bareSdk = sdk as Parameters<typeof bare.bareSdk>[0];
  // `floor`: a bare exchange, reported apart (the floor), not as a ratio to the simulated memory run.
  const tasks: { key: string; old: boolean; floor?: true; run: () => Promise<unknown> }[] = [
    { key: 'memory', old: false, run: simulated(memory) },
    { key: 'http', old: false, run: simulated(http) },
    ...(flags.against ? [{ key: `http (${flags.against}'s network)`, old: true, run: simulated(http) }] : []),
    { key: 'bare SDK in memory', old: false, floor: true, run: () => bare.bareSdk(bareSdk, 1) },
    { key: 'bare SDK over HTTP', old: false, floor: true, run: () => bare.bareSdkHttp(bareSdk, 1) },
  ];
  const batch = Number(flags.batch);
  const rounds = Number(flags.rounds);
  const wall = new Map<string, number[]>(tasks.map((t) => [t.key, []]));
  const cpu = new Map<string, number[]>(tasks.map((t) => [t.key, []]));
  // Warm-up: every task a batch, untimed.
  for (const t of tasks) {
    flag.__mcpSimOldNetwork = t.old;
    for (let i = 0; i < batch; i++) await t.run();
  }
  for (let r = 0; r < rounds; r++) {
    for (const t of r % 2 === 0 ? tasks : [...tasks].reverse()) {
      flag.__mcpSimOldNetwork = t.old;
      const started = performance.now();
      const used = process.cpuUsage();
      for (let i = 0; i < batch; i++) await t.run();
      const { user, system } = process.cpuUsage(used);
      wall.get(t.key)!.push((performance.now() - started) / batch);
      cpu.get(t.key)!.push((user + system) / 1000 / batch);
    }
  }
  flag.__mcpSimOldNetwork = undefined;
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  console.log(`interleaved batches of ${batch}, medians of ${rounds} rounds`);
  for (const [clock, samples] of [['wall', wall], ['cpu', cpu]] as const) {
    const ms = (key: string) => median(samples.get(key)!);
    const ratio = (a: string, b: string) => median(samples.get(a)!.map((x, k) => x / samples.get(b)![k]!));
    const m = ms('memory');
    console.log(`${clock}: memory ${m.toFixed(3)} ms per scenario`);
    for (const t of tasks.slice(1).filter((t) => !t.floor)) console.log(`${clock}: ${t.key} ${ms(t.key).toFixed(3)} ms, ${(ms(t.key) / m).toFixed(2)}× memory (per round: ${ratio(t.key, 'memory').toFixed(2)}×)`);
    const b = ms('bare SDK in memory');
    console.log(`${clock}: bare SDK in memory ${b.toFixed(3)} ms, over HTTP ${ms('bare SDK over HTTP').toFixed(3)} ms, ${(ms('bare SDK over HTTP') / b).toFixed(2)}× (per round: ${ratio('bare SDK over HTTP', 'bare SDK in memory').toFixed(2)}×): the floor of the ratio`);
    console.log(`${clock}: what the harness adds: memory ${(m / b).toFixed(2)}× the bare SDK, http ${(ms('http') / ms('bare SDK over HTTP')).toFixed(2)}×`);
    const old = tasks.find((t) => t.old);
    if (old) console.log(`${clock}: this tree's network / ${flags.against}'s: ${(ms('http') / ms(old.key)).toFixed(3)} (per round: ${ratio('http', old.key).toFixed(3)})`);
  }
} finally {
  if (dir !== ROOT) rmSync(dir, { recursive: true, force: true });
}
