/**
 * The Java example servers' wire behaviour, checked on the built jar over stdio: what its README states
 * about cancellation with the official Java SDK (which has none of its own) and about stdin EOF.
 * Needs `examples/servers/java/install.sh` to have run (`npm run examples`); skipped otherwise,
 * with the reason. Black box, real time: each check waits on frames, never on fixed sleeps alone.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const cache = process.env.MCP_SIM_EXAMPLES_CACHE ? join(process.env.MCP_SIM_EXAMPLES_CACHE, 'java') : resolve(here, '../../../node_modules/.cache/mcp-sim/examples/java');
const built = existsSync(join(cache, 'servers.jar'));

interface ExampleServer { readonly name: string; readonly stdio?: readonly string[]; readonly http?: { readonly start: readonly string[]; readonly url: string } }
const manifest = JSON.parse(readFileSync(join(here, 'servers.json'), 'utf8')) as { servers: ExampleServer[] };

/** The stdio command of `name` from servers.json, placeholders filled, plus `extra` arguments. */
function command(name: string, extra: readonly string[] = []): string[] {
  const server = manifest.servers.find((s) => s.name === name);
  if (server?.stdio === undefined) throw new Error(`servers.json: no stdio command for ${name}`);
  return [...server.stdio.map((a) => a.replaceAll('{cache}', cache).replaceAll('{dir}', here)), ...extra];
}

/** A free loopback port (the OS picks it; released before the server binds it). */
async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** Starts `name`'s HTTP command from servers.json and resolves with its URL once it answers `initialize`. */
async function startHttp(name: string, started: { kill(): void }[]): Promise<{ url: string; init: Response }> {
  const server = manifest.servers.find((s) => s.name === name);
  if (server?.http === undefined) throw new Error(`servers.json: no http entry for ${name}`);
  const port = String(await freePort());
  const fill = (a: string): string => a.replaceAll('{cache}', cache).replaceAll('{dir}', here).replaceAll('{port}', port);
  const argv = server.http.start.map(fill);
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
  started.push({ kill: () => child.kill('SIGKILL') });
  const url = fill(server.http.url);
  for (const deadline = Date.now() + 20_000; ; ) {
    try {
      const init = await post(url, undefined, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'javaExamples.test', version: '1' } } });
      await init.clone().text();
      return { url, init };
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function post(url: string, session: string | null | undefined, body: object, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  if (session) headers['mcp-session-id'] = session;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
}

/** POSTs `work` (8 x 40 ms) as id 1, cancels it 100 ms later, and reports whether and how its POST ended within `boundMs` of the cancel. */
async function cancelOverHttp(url: string, session: string | null, boundMs: number): Promise<{ ended: boolean; body: string }> {
  if (session) await (await post(url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  const abort = new AbortController();
  const call = post(url, session, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', arguments: { steps: 8, stepMs: 40 }, _meta: { progressToken: 'h1' } } }, abort.signal)
    .then(async (r) => r.text());
  await new Promise((r) => setTimeout(r, 100));
  const cancel = await post(url, session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
  expect(cancel.status).toBe(202);
  const outcome = await Promise.race([call.then((body) => ({ ended: true, body })), new Promise<{ ended: boolean; body: string }>((r) => setTimeout(() => r({ ended: false, body: '' }), boundMs))]);
  abort.abort();
  await call.catch(() => undefined);
  return outcome;
}

type Frame = { id?: number; method?: string; result?: unknown; error?: unknown; params?: { progressToken?: unknown } };

/** One server process with every stdout frame kept, in order, with the time it arrived. */
class StdioServer {
  readonly frames: { at: number; frame: Frame }[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;
  private waiters: (() => void)[] = [];

  constructor(argv: string[]) {
    this.child = spawn(argv[0]!, argv.slice(1), { stdio: 'pipe' });
    this.exited = new Promise((done) => this.child.on('exit', (code) => done(code)));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.frames.push({ at: Date.now(), frame: JSON.parse(line) as Frame });
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr.resume();
  }

  send(message: object): number {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return Date.now();
  }

  /** Resolves with the first frame matching `test`; rejects after `ms`. */
  async next(test: (f: Frame) => boolean, ms = 15_000): Promise<Frame> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = this.frames.find((f) => test(f.frame));
      if (hit) return hit.frame;
      if (Date.now() > deadline) throw new Error(`no matching frame within ${ms} ms`);
      await new Promise<void>((r) => { this.waiters.push(r); setTimeout(r, 50); });
    }
  }

  async initialize(): Promise<void> {
    this.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'javaExamples.test', version: '1' } } });
    await this.next((f) => f.id === 0 && f.result !== undefined);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  closeStdin(): number {
    this.child.stdin.end();
    return Date.now();
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** Calls `work` (8 steps of 40 ms, progress token "c1") as id 1, cancels it after its first progress, then calls id 2 and waits for its answer. */
async function cancelFirstCall(server: StdioServer): Promise<{ cancelledAt: number; answered: boolean; progressAfterCancel: number }> {
  await server.initialize();
  server.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', arguments: { steps: 8, stepMs: 40 }, _meta: { progressToken: 'c1' } } });
  await server.next((f) => f.method === 'notifications/progress' && f.params?.progressToken === 'c1');
  const cancelledAt = server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'test' } });
  server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'work', arguments: { steps: 1, stepMs: 5 } } });
  await server.next((f) => f.id === 2);
  const answered = (): boolean => server.frames.some((f) => f.frame.id === 1);
  const progressAfterCancel = (): number => server.frames.filter((f) => f.frame.params?.progressToken === 'c1' && f.at > cancelledAt).length;
  // Until what a server that ignores the cancel would have sent (7 more progress and the answer
  // of id 1's 8 x 40 ms) is in, or 600 ms after id 2's answer at the least, 2 s at the most.
  const waitedAtLeast = Date.now() + 600;
  for (const deadline = Date.now() + 2_000; Date.now() < deadline; ) {
    if (Date.now() >= waitedAtLeast && (answered() || progressAfterCancel() >= 7)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { cancelledAt, answered: answered(), progressAfterCancel: progressAfterCancel() };
}

describe.skipIf(!built)(`Java example servers (${built ? cache : 'not built: run examples/servers/java/install.sh'})`, () => {
  const started: { kill(): void }[] = [];
  const start = (argv: string[]): StdioServer => {
    const s = new StdioServer(argv);
    started.push(s);
    return s;
  };
  afterEach(() => started.splice(0).forEach((s) => s.kill()));

  it('correct: a cancelled call gets no answer and stops reporting progress (stdio)', async () => {
    const result = await cancelFirstCall(start(command('correct')));
    expect(result.answered).toBe(false);
    // At most what was already handed to the SDK when the cancel arrived.
    expect(result.progressAfterCancel).toBeLessThanOrEqual(2);
  });

  it('Java SDK alone (--sdk-only): a cancelled call runs on and is answered anyway (stdio)', async () => {
    const result = await cancelFirstCall(start(command('correct', ['--sdk-only'])));
    expect(result.answered).toBe(true);
    expect(result.progressAfterCancel).toBeGreaterThanOrEqual(5);
  });

  it('cancel-not-wired: the worker keeps reporting progress after the cancel, with no answer (stdio)', async () => {
    const result = await cancelFirstCall(start(command('cancel-not-wired')));
    expect(result.answered).toBe(false);
    expect(result.progressAfterCancel).toBeGreaterThanOrEqual(5);
  });

  it("correct: a cancelled request's POST ends with no response in it (Streamable HTTP)", async () => {
    const { url, init } = await startHttp('correct', started);
    const outcome = await cancelOverHttp(url, init.headers.get('mcp-session-id'), 2_000);
    expect(outcome.ended).toBe(true);
    expect(outcome.body).not.toContain('"id":1,');
  });

  it("post-hangs: a cancelled request's POST is still open 1 s after the cancel (stateless HTTP)", async () => {
    const { url } = await startHttp('post-hangs', started);
    const outcome = await cancelOverHttp(url, null, 1_000);
    expect(outcome.ended).toBe(false);
  });

  it('correct: stdin EOF with a call in flight exits with code 0 at once (stdio)', async () => {
    const server = start(command('correct'));
    await server.initialize();
    server.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', arguments: { steps: 8, stepMs: 40 } } });
    const closedAt = server.closeStdin();
    expect(await server.exited).toBe(0);
    expect(Date.now() - closedAt).toBeLessThan(2_000);
    expect(server.frames.some((f) => f.frame.id === 1)).toBe(false);
  });
});
