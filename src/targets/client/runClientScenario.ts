import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../real/freePort.ts';
import { exited, killOwned, spawnOwned } from '../../real/processRegistry.ts';
import type { ClientScript, ClientServerSpec, ServerPlan } from '../../real/clientScript.ts';
import type { ClientScenario } from './clientScenarios.ts';

/** The scripted server's file: beside this module in a clone (src/) and in the package (dist/). */
export const SCRIPTED_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'scriptedServer.mjs');

/** How a test-bed client reaches the scripted server. */
export type ClientTransport = 'stdio' | 'http';

/** One side-channel event of the client (testbeds/CLIENT.md), with the real ms since the client started. */
export interface ClientEvent {
  readonly t: number;
  readonly event: string;
  readonly call?: string;
  readonly outcome?: string;
  readonly code?: number;
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
  readonly method?: string;
  readonly id?: string | number;
  readonly [key: string]: unknown;
}

/** One line of the scripted server's wire log: a frame in or out, or one of its own events. */
export interface WireEntry {
  /** Real ms since the scripted server started. */
  readonly t: number;
  readonly dir?: 'in' | 'out';
  readonly frame?: Record<string, unknown>;
  readonly event?: string;
  readonly [key: string]: unknown;
}

/** What one run of a scenario left: both sides' records and how the client ended. */
export interface ClientRun {
  readonly scenario: string;
  readonly transport: ClientTransport;
  readonly events: readonly ClientEvent[];
  readonly wire: readonly WireEntry[];
  /** stderr lines that are not events (the SDK's own output, a stack trace). */
  readonly stderr: readonly string[];
  /** How the client process ended: its exit code, or that mcp-sim had to kill it at the deadline. */
  readonly exit: { readonly code: number | null; readonly signal: string | null; readonly killed: boolean };
  /** When the client process ended, in the side channel's ms (since it was spawned). */
  readonly exitMs: number;
  readonly wallMs: number;
  /**
   * Client time + `clockOffsetMs` = the wire log's time, from both sides' wall clock (one machine):
   * good to a few ms. `clientTrace` puts the two records on the wire log's clock with it, and lets
   * what caused what (a progress read before its callback ran) win over a few ms of it.
   */
  readonly clockOffsetMs: number | undefined;
}

const EVENT_PREFIX = 'mcp-sim-event ';
/** After the script's deadline, how long the client has to end on its own before it is killed. */
const EXIT_GRACE_MS = 5_000;

/** The scripted server's argv for a plan file. */
export function scriptedServerCommand(planFile: string, http?: { port: number }): string[] {
  return [process.execPath, SCRIPTED_SERVER, planFile, ...(http ? ['--http', '--port', String(http.port)] : [])];
}

/**
 * Runs one scenario once: writes its plan and script, starts the scripted server over HTTP (over
 * stdio the client starts it), runs the client to its end (killed `EXIT_GRACE_MS` after the
 * deadline), and returns both sides' records. Every process it started is gone when it returns.
 */
export async function runClientScenario(client: readonly string[], scenario: ClientScenario, transport: ClientTransport): Promise<ClientRun> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-client-'));
  const log = join(dir, 'wire.jsonl');
  const planFile = join(dir, 'plan.json');
  // A fuse: the scripted server ends itself well after the client's last chance, whoever started it.
  const plan: ServerPlan & { maxLifeMs: number } = { ...scenario.plan, log, maxLifeMs: scenario.script.deadlineMs + EXIT_GRACE_MS + 5_000 };
  writeFileSync(planFile, JSON.stringify(plan));
  const started = performance.now();
  let server: ReturnType<typeof spawnOwned> | undefined;
  try {
    let reach: ClientServerSpec;
    if (transport === 'http') {
      const port = await freePort();
      const [command, ...args] = scriptedServerCommand(planFile, { port });
      server = spawnOwned(command!, args, {});
      await listening(server);
      reach = { url: `http://127.0.0.1:${port}/mcp` };
    } else {
      reach = { stdio: scriptedServerCommand(planFile) };
    }
    const script: ClientScript = { server: reach, ...scenario.script };
    const scriptFile = join(dir, 'script.json');
    writeFileSync(scriptFile, JSON.stringify(script));
    const [command, ...args] = client;
    const child = spawnOwned(command!, [...args, scriptFile], {});
    child.stdin?.end();
    child.stdout?.resume();
    const events: ClientEvent[] = [];
    const stderr: string[] = [];
    const spawned = performance.now();
    const spawnedEpoch = Date.now();
    const lines = createInterface({ input: child.stderr! });
    lines.on('line', (line) => {
      const t = Math.round((performance.now() - spawned) * 10) / 10;
      const at = line.indexOf(EVENT_PREFIX);
      if (at >= 0) {
        try {
          events.push({ t, ...(JSON.parse(line.slice(at + EVENT_PREFIX.length)) as { event: string }) });
          return;
        } catch {
          // Not an event after all: kept as text.
        }
      }
      stderr.push(line);
    });
    const startFailure = new Promise<Error>((resolve) => child.once('error', resolve));
    const ended = await Promise.race([exited(child, scenario.script.deadlineMs + EXIT_GRACE_MS), startFailure]);
    if (ended instanceof Error) throw new Error(`cannot start the test-bed client ${client.join(' ')}: ${ended.message}`);
    let killed = false;
    if (!ended) {
      killed = true;
      await killOwned(child, 1_000);
    }
    const exitMs = Math.round((performance.now() - spawned) * 10) / 10;
    await new Promise<void>((resolve) => (lines.once('close', resolve), setTimeout(resolve, 500)));
    if (server) {
      // Give the last POSTs time to land before the scripted server goes.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await killOwned(server, 1_000);
      server = undefined;
    }
    const wire = readWire(log);
    stopStrayServer(wire);
    const serverEpoch = wire.find((w) => w.event === 'start')?.['epoch'];
    return {
      scenario: scenario.name,
      transport,
      events,
      wire,
      stderr,
      exit: { code: child.exitCode, signal: child.signalCode, killed },
      exitMs,
      wallMs: Math.round(performance.now() - started),
      clockOffsetMs: typeof serverEpoch === 'number' ? Math.round(spawnedEpoch - serverEpoch) : undefined,
    };
  } finally {
    if (server) await killOwned(server, 1_000);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resolves once the HTTP scripted server prints `listening` (rejects if it exits first). */
function listening(server: ReturnType<typeof spawnOwned>): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stdout! });
    lines.on('line', (line) => line === 'listening' && resolve());
    server.once('exit', (code) => reject(new Error(`the scripted server exited (${code}) before listening`)));
  });
}

function readWire(file: string): WireEntry[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as WireEntry];
      } catch {
        return [];
      }
    });
}

/**
 * A stdio scripted server the client started outside its own process group and left running:
 * killed here (its pid is in the log's `start`), so nothing outlives the run. The judge has
 * already seen, from the log, that the client did not end it.
 */
function stopStrayServer(wire: readonly WireEntry[]): void {
  const start = wire.find((w) => w.event === 'start');
  const pid = typeof start?.['pid'] === 'number' ? start['pid'] : undefined;
  if (pid === undefined || wire.some((w) => w.event === 'exit')) return;
  try {
    // Only if that pid is still the scripted server (not a pid the system gave out again).
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scriptedServer.mjs')) return;
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
