import type { ChildProcess } from 'node:child_process';
import { DEFAULT_PROCESS_GRACE_MS } from '../options/defaults.ts';
import type { TraceRecorder } from '../sim/trace.ts';
import { freePort, fillPort } from './freePort.ts';
import type { Inbox } from './Inbox.ts';
import { exited as exitedWithin, signalGroup, spawnOwned } from './processRegistry.ts';
import { BadTargetError } from './connection.ts';
import { STDERR_BYTES_KEPT, type WireBounds } from './wireBounds.ts';

/** A server started by a command: a shell line (run by `/bin/sh -c exec …`) or an argument array (no shell). */
export interface CommandSpec {
  readonly command: string | readonly string[];
  /** Working directory of the server. @default the current directory */
  readonly cwd?: string;
  /** Variables added to mcp-sim's environment for the server (`{port}` filled in, as in the command). @default {} */
  readonly env?: Readonly<Record<string, string>>;
}

export interface ProcessTargetOptions {
  /** Grace period of each shutdown step (stdin EOF, SIGTERM). @default DEFAULT_PROCESS_GRACE_MS */
  readonly graceMs?: number;
  /** What a connection keeps of what the server sends. @default DEFAULT_WIRE_BOUNDS */
  readonly wire?: WireBounds;
}

/** `command` as a program and arguments, `{port}` filled in. */
export function argvOf(spec: CommandSpec, port: number): [string, string[]] {
  if (typeof spec.command === 'string') return ['/bin/sh', ['-c', `exec ${fillPort(spec.command, port)}`]];
  const [program, ...args] = spec.command.map((a) => fillPort(a, port));
  if (program === undefined) throw new BadTargetError('bad-option', 'mcp-sim: the server command is empty: give a program to start.');
  return [program, args];
}

/** The command as the report names it. */
export const commandLabel = (spec: CommandSpec): string => (typeof spec.command === 'string' ? spec.command : spec.command.join(' '));

/** The process and its recorder's `exit` event, for a connection (stdio here, `--start` for HTTP). */
export interface StartedProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** Stops the process the stdio way (EOF, grace, SIGTERM, grace, SIGKILL); records the exit. */
  stop(): Promise<void>;
  /** SIGTERM to the group, grace, SIGKILL (a `--start` HTTP server: it has no stdin to close). */
  kill(): Promise<void>;
  readonly exited: boolean;
}

/**
 * Starts a server process owned by `processRegistry` (own process group, reaped on every exit
 * path), records its stderr and its exit, and ends `inbox` when it exits. A command that is not
 * found is a `BadTargetError` (one line, exit 2).
 */
export async function startProcess(spec: CommandSpec, recorder: Pick<TraceRecorder, 'record'>, inbox: Pick<Inbox, 'end'>, options: ProcessTargetOptions = {}): Promise<StartedProcess> {
  const graceMs = options.graceMs ?? DEFAULT_PROCESS_GRACE_MS;
  const port = await freePort();
  const [program, args] = argvOf(spec, port);
  const child = spawnOwned(program, args, { ...(spec.cwd !== undefined && { cwd: spec.cwd }), env: { ...process.env, ...Object.fromEntries(Object.entries(spec.env ?? {}).map(([k, v]) => [k, fillPort(v, port)])) } });
  let after: 'eof' | 'before-eof' | 'sigterm' | 'sigkill' = 'before-eof';
  let stderrTail = '';
  child.stderr!.setEncoding('utf8');
  /** What of stderr the trace keeps (STDERR_BYTES_KEPT, in characters), and one event saying how much more there was. */
  let kept = 0;
  let dropped = 0;
  let left: { kind: 'stderr'; text: string } | undefined;
  child.stderr!.on('data', (text: string) => {
    stderrTail = (stderrTail + text).slice(-2_000);
    if (dropped === 0 && kept + text.length <= STDERR_BYTES_KEPT) {
      kept += text.length;
      recorder.record({ kind: 'stderr', text });
      return;
    }
    dropped += text.length;
    if (!left) recorder.record((left = { kind: 'stderr', text: '' }));
    left.text = `[mcp-sim: ${dropped} more characters of stderr not kept (the first ${kept} are)]`;
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new BadTargetError('not-found', `mcp-sim: cannot start ${JSON.stringify(program)} (${error.code ?? error.message}): check the command and --cwd.`)),
    );
  });
  let exited = false;
  child.once('exit', (code, signal) => {
    exited = true;
    recorder.record({ kind: 'exit', code, signal, after });
    const lastLine = stderrTail.trim().split('\n').at(-1) ?? '';
    inbox.end(code === 127 && typeof spec.command === 'string' ? `command not found: ${lastLine}` : `the process exited (${signal ?? `code ${code}`})${lastLine ? `; stderr: ${lastLine}` : ''}`);
  });
  // A server that dies makes writes to its stdin fail with EPIPE: that is its exit, recorded above.
  child.stdin!.on('error', () => {});
  const kill = async () => {
    if (exited) return;
    after = 'sigterm';
    signalGroup(child, 'SIGTERM');
    if (await exitedWithin(child, graceMs)) return;
    after = 'sigkill';
    signalGroup(child, 'SIGKILL');
    await exitedWithin(child, graceMs);
  };
  return {
    child,
    port,
    get exited() {
      return exited;
    },
    async stop() {
      if (exited) return;
      after = 'eof';
      recorder.record({ kind: 'eof', to: 'server', conn: 0 });
      child.stdin!.end();
      if (await exitedWithin(child, graceMs)) return;
      await kill();
    },
    kill,
  };
}
