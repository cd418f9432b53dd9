import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { TraceEventBody } from '../trace.ts';
import type { HandlerScope } from './handlerScope.ts';

const require = createRequire(import.meta.url);

/** Functions of Node's built-ins that reach outside the process: each is stopped during a hosted run. */
const GUARDED: readonly (readonly [module: string, names: readonly string[]])[] = [
  ['child_process', ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']],
  ['net', ['connect', 'createConnection']],
  ['tls', ['connect']],
  ['http', ['request', 'get']],
  ['https', ['request', 'get']],
  ['dgram', ['createSocket']],
  ['fs', ['writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'createWriteStream', 'mkdir', 'mkdirSync', 'rm', 'rmSync', 'unlink', 'unlinkSync', 'rename', 'renameSync', 'copyFile', 'copyFileSync']],
  ['fs/promises', ['writeFile', 'appendFile', 'mkdir', 'rm', 'unlink', 'rename', 'copyFile']],
];

/** What a guarded call throws: the handler sees an error, the trace an `io-blocked` event. */
export class BlockedIoError extends Error {
  override name = 'BlockedIoError';
}

/**
 * Stops a user's code from reaching real processes, sockets and files while a run is in
 * progress: each guarded call records `io-blocked` and throws, so the run stays offline and
 * deterministic and the report says what was tried. A write to stdout from a handler is dropped
 * (on stdio it would corrupt the protocol stream) and recorded. Returns the function that puts
 * everything back.
 */
export function guardIo(scope: HandlerScope, record: (e: TraceEventBody) => void, connOf: () => number): () => void {
  const restores: (() => void)[] = [];
  const blocked = (what: string) => {
    const frame = scope.current();
    record({ kind: 'io-blocked', side: 'server', conn: frame?.conn ?? connOf(), ...(frame && { id: frame.id }), what });
  };
  for (const [name, fns] of GUARDED) {
    const mod = require(`node:${name}`) as Record<string, unknown>;
    for (const fn of fns) {
      const original = mod[fn];
      if (typeof original !== 'function') continue;
      mod[fn] = function guarded() {
        blocked(`${name}.${fn}`);
        throw new BlockedIoError(`mcp-sim: ${name}.${fn} is not reachable during a simulated run (runs stay offline and deterministic)`);
      };
      restores.push(() => (mod[fn] = original));
    }
  }
  const write = process.stdout.write;
  process.stdout.write = function guardedWrite(this: typeof process.stdout, ...args: Parameters<typeof write>) {
    if (!scope.current()) return write.apply(this, args);
    blocked('process.stdout.write');
    return true;
  } as typeof write;
  restores.push(() => (process.stdout.write = write));
  syncBuiltinESMExports();
  return () => {
    for (const restore of restores.reverse()) restore();
    syncBuiltinESMExports();
  };
}
