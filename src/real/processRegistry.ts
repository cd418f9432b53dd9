import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PROCESS_GRACE_MS } from '../options/defaults.ts';

/**
 * Every server process mcp-sim starts is owned here, and gone when mcp-sim ends, however it ends:
 *
 * - each child runs in its own process group (`detached: true`), so a signal to the group also
 *   reaches what the server started (a `uv run`, a shell, a JVM's helpers);
 * - its pid is kept in a registry until it has exited;
 * - a normal end or a thrown error calls `stop()` (stdin EOF, grace, SIGTERM to the group,
 *   grace, SIGKILL); SIGINT and SIGTERM of mcp-sim kill every group, then exit 128 + signal;
 *   `process.on('exit')` sends SIGKILL to every group synchronously as the last resort;
 * - a SIGKILL of mcp-sim itself runs none of these: a reaper process (`reaper.mjs`, detached, one
 *   per mcp-sim) holds the list of groups and sees its stdin pipe end when mcp-sim dies, for any
 *   reason; it then sends SIGTERM, waits the grace period and sends SIGKILL. Besides, each
 *   server's stdin is a pipe from mcp-sim, so a server that exits on EOF exits at once.
 */
const owned = new Map<number, ChildProcess>();
let reaper: ChildProcess | undefined;
let hooksInstalled = false;

function tellReaper(line: string): void {
  if (reaper?.stdin && !reaper.stdin.destroyed) reaper.stdin.write(`${line}\n`);
}

function killAllSync(signal: NodeJS.Signals): void {
  for (const pid of owned.keys()) {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  }
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => killAllSync('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllSync('SIGTERM');
      // A server that ignores SIGTERM is the reaper's, which waits the grace period and kills it.
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
  const boot = fileURLToPath(new URL('./reaper.mjs', import.meta.url));
  reaper = spawn(process.execPath, [boot, String(DEFAULT_PROCESS_GRACE_MS)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  reaper.unref();
  (reaper.stdin as unknown as { unref?: () => void }).unref?.();
  reaper.on('error', () => {
    reaper = undefined;
  });
}

/** The pids of the process groups mcp-sim owns now (for tests and the report). */
export function ownedPids(): number[] {
  return [...owned.keys()];
}

/** The reaper's pid, once a server was started (for the no-orphan tests). */
export function reaperPid(): number | undefined {
  return reaper?.pid;
}

/**
 * Starts `command` with `args` as an owned process: its own process group, stdin/stdout/stderr
 * piped, registered until it exits. Throws like `spawn` (an `error` event) for a command that
 * cannot start; the caller listens.
 */
export function spawnOwned(command: string, args: readonly string[], options: Pick<SpawnOptions, 'cwd' | 'env'>): ChildProcess {
  installHooks();
  const child = spawn(command, args, { ...options, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid !== undefined) {
    owned.set(pid, child);
    tellReaper(`+${pid}`);
    child.once('exit', () => {
      // The leader is gone; what it started in its group goes with it.
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Nothing left in the group.
      }
      owned.delete(pid);
      tellReaper(`-${pid}`);
    });
  }
  return child;
}

/** Resolves when `child` has exited (at once if it has), or after `ms` with `false`. */
export function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** How a stopped process ended: by itself after EOF, or by SIGTERM or SIGKILL of its group. */
export type StopOutcome = 'exited-on-eof' | 'exited-before-eof' | 'sigterm' | 'sigkill';

/**
 * The stdio transport's shutdown: close stdin, wait `graceMs` for the exit, SIGTERM the group,
 * wait `graceMs`, SIGKILL the group. Resolves when the process is gone.
 */
export async function stopOwned(child: ChildProcess, graceMs: number = DEFAULT_PROCESS_GRACE_MS): Promise<StopOutcome> {
  if (child.exitCode !== null || child.signalCode !== null) return 'exited-before-eof';
  child.stdin?.end();
  if (await exited(child, graceMs)) return 'exited-on-eof';
  return killOwned(child, graceMs);
}

/** Sends `signal` to the process group of `child` (nothing when it is gone). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM to the group, `graceMs`, SIGKILL. Resolves when the process is gone. */
export async function killOwned(child: ChildProcess, graceMs: number = DEFAULT_PROCESS_GRACE_MS): Promise<'sigterm' | 'sigkill'> {
  const pid = child.pid!;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
  if (await exited(child, graceMs)) return 'sigterm';
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  await exited(child, graceMs);
  return 'sigkill';
}
