import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { TraceRecorder } from '../../src/sim/trace.ts';
import { handshake, Inbox } from '../../src/real/index.ts';
import { stdioEndpoint } from '../../src/targets/index.ts';
import { DEFAULT_PROCESS_GRACE_MS } from '../../src/options/defaults.ts';

const driver = new URL('./fixtures/holdServers.mts', import.meta.url).pathname;
const fixture = new URL('./fixtures/workServer.mjs', import.meta.url).pathname;

/**
 * Still running: signal 0 reaches it and it is not a zombie (a process that died after its parent
 * is left to pid 1, which in a container may reap it late; it runs no code any more).
 */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};

/** Resolves when none of `pids` is alive, or after `ms` with those still alive. */
async function gone(pids: readonly number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts the stand-in for mcp-sim with fixture servers; resolves with its process and the pids it owns. */
async function hold(mode: 'end' | 'wait' | 'throw', faults: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', driver, mode, ...faults], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<{ servers: number[]; reaper: number }>((resolve, reject) => {
    lines.once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (code) => reject(new Error(`the driver exited (${code}) before printing its pids`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ...first, exited };
}

describe('no orphans: every server process mcp-sim started is gone when it ends', () => {
  it('No orphans: normal end (stdin EOF, each server exits by itself)', async () => {
    const h = await hold('end', ['none', 'none']);
    expect(h.servers).toHaveLength(2);
    expect(await h.exited).toBe(0);
    expect(await gone([...h.servers, h.reaper], 2_000)).toEqual([]);
  });

  it('No orphans: a thrown error in mcp-sim (process.on(exit) kills every group)', async () => {
    const h = await hold('throw', ['no-eof-exit']);
    expect(await h.exited).not.toBe(0);
    expect(await gone(h.servers, 1_000)).toEqual([]);
    expect(await gone([h.reaper], DEFAULT_PROCESS_GRACE_MS + 2_000)).toEqual([]);
  });

  it('No orphans: Ctrl-C (SIGINT to mcp-sim) with a server that ignores SIGTERM (the reaper kills it after the grace period)', async () => {
    const h = await hold('wait', ['none', 'ignore-sigterm']);
    h.child.kill('SIGINT');
    expect(await h.exited).toBe(130);
    expect(await gone([...h.servers, h.reaper], DEFAULT_PROCESS_GRACE_MS + 2_000)).toEqual([]);
  });

  it('No orphans: kill -9 of mcp-sim itself (its pipe to the reaper ends; SIGTERM, then SIGKILL after the grace period)', async () => {
    const h = await hold('wait', ['no-eof-exit', 'ignore-sigterm']);
    h.child.kill('SIGKILL');
    await h.exited;
    expect(await gone([...h.servers, h.reaper], DEFAULT_PROCESS_GRACE_MS + 2_000)).toEqual([]);
  });

  it('No orphans: a server that ignores stdin EOF and SIGTERM is killed after two grace periods, and the exit says so', async () => {
    const recorder = new TraceRecorder(() => performance.now());
    const inbox = new Inbox();
    const conn = await stdioEndpoint({ command: [process.execPath, fixture, '--fault', 'ignore-sigterm'] }, { graceMs: 200 }).open(recorder, inbox);
    await handshake(conn, inbox);
    await conn.close();
    expect(conn.exited).toBe(true);
    expect(recorder.events.find((e) => e.kind === 'exit')).toMatchObject({ signal: 'SIGKILL', after: 'sigkill' });
  });
});
