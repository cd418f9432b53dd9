import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/real/connection.ts';
import { WarmPool } from '../../src/real/warmPool.ts';
import { efficiencyOf } from '../../src/campaign/real/efficiency.ts';
import { efficiencyLine } from '../../src/report/realReport.ts';
import { httpEndpoint, stdioEndpoint } from '../../src/targets/index.ts';
import { startProcess } from '../../src/real/startProcess.ts';

const fixture = new URL('../target/fixtures/workServer.mjs', import.meta.url).pathname;

/** The work server's stdio endpoint whose opens numbered in `failing` (from 1) fail before any process starts, as a socket reset would. */
function flaky(failing: readonly number[]): Endpoint & { opens: number } {
  const real = stdioEndpoint({ command: [process.execPath, fixture] }, { graceMs: 300 });
  const endpoint = {
    ...real,
    opens: 0,
    open(...args: Parameters<Endpoint['open']>) {
      endpoint.opens++;
      if (failing.includes(endpoint.opens)) return Promise.reject(new Error('other side closed (UND_ERR_SOCKET)'));
      return real.open(...args);
    },
  };
  return endpoint;
}

describe('WarmPool: a connection that fails to open', () => {
  it('is tried once more when the target opened one before (a keep-alive socket reset says nothing of the server)', async () => {
    const endpoint = flaky([2]);
    const pool = new WarmPool(endpoint);
    const first = await pool.take();
    const second = await pool.take();
    expect(pool.reopened).toBe(1);
    expect(endpoint.opens).toBe(3);
    expect(second.hello.protocolVersion).toBeTypeOf('string');
    await Promise.all([first.conn.close(), second.conn.close(), pool.close()]);
  });

  it('is the campaign\'s error when the target never opened one, or fails twice in a row', async () => {
    const never = new WarmPool(flaky([1]));
    await expect(never.take()).rejects.toThrow(/UND_ERR_SOCKET/);
    expect(never.reopened).toBe(0);
    const twice = flaky([2, 3]);
    const pool = new WarmPool(twice);
    const first = await pool.take();
    await expect(pool.take()).rejects.toThrow(/UND_ERR_SOCKET/);
    expect(pool.reopened).toBe(1);
    await Promise.all([first.conn.close(), pool.close()]);
  });
});

describe('WarmPool: a shared server that stopped answering new sessions', () => {
  /** The work server over HTTP, whose initialize past its `max`-th session is never answered (workers all held). */
  const exhausted = (max: number) => [process.execPath, fixture, '--http', '--port', '{port}', '--max-sessions', String(max)];

  it('is renewed with --start: the next session goes to a new server, the old one keeps its sessions and stops with the rest', async () => {
    const endpoint = httpEndpoint({ url: 'http://127.0.0.1:{port}/mcp', start: { command: exhausted(2) } }, { graceMs: 300 });
    const pool = new WarmPool(endpoint, { shared: true }, 1_500);
    const first = await pool.take();
    const second = await pool.take();
    const third = await pool.take();
    expect(pool.reopened).toBe(1);
    expect(pool.renewed).toBe(1);
    expect(third.hello.protocolVersion).toBeTypeOf('string');
    // The first server still serves the sessions open on it.
    expect(first.conn.exited).toBe(false);
    await Promise.all([first.conn.close(), second.conn.close(), third.conn.close(), pool.close()]);
    await endpoint.release?.();
  });

  it('without --start (nothing to renew) ends the campaign saying the server stopped taking connections, not "is it an MCP server?"', async () => {
    const server = await startProcess({ command: exhausted(1) }, { record: () => undefined }, { end: () => undefined }, { graceMs: 300 });
    try {
      const endpoint = httpEndpoint({ url: `http://127.0.0.1:${server.port}/mcp` });
      const pool = new WarmPool(endpoint, {}, 1_000);
      let first;
      for (let tries = 0; first === undefined && tries < 50; tries++) first = await pool.take().catch(() => new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)));
      expect(first).toBeDefined();
      await expect(pool.take()).rejects.toThrow(/answered initialize on 1 connection\(s\), then twice not within 1000 ms: it stopped taking new connections/);
      expect(pool.renewed).toBe(0);
      await Promise.all([first!.conn.close(), pool.close()]);
    } finally {
      await server.kill();
    }
  });
});

describe('the report of opens tried twice', () => {
  const phases = { prepareMs: 1, runsMs: 2, findingsMs: 3 };
  const startups = [{ ms: 100, started: 'process' as const }, { ms: 120, started: 'process' as const }];

  it('states them beside the start-up, so a retry is never silent', () => {
    const efficiency = efficiencyOf([], { startups, retried: 1 }, 2, 1_000, 0, phases);
    expect(efficiency.startup.retried).toBe(1);
    const renewed = efficiencyOf([], { startups, retried: 1, renewed: 1 }, 2, 1_000, 0, phases);
    expect(efficiencyLine({ efficiency: renewed })).toMatch(/1 opened on a second try after a failed open \(1 on a new server: the one running had stopped answering initialize\)/);
    expect(efficiencyLine({ efficiency })).toMatch(/start-up 120 ms median \(2 processes, 0\.2 s in all, 1 opened on a second try after a failed open\)/);
  });

  it('says nothing of them when every open succeeded first time', () => {
    const efficiency = efficiencyOf([], { startups, retried: 0 }, 2, 1_000, 0, phases);
    expect(efficiency.startup).not.toHaveProperty('retried');
    expect(efficiencyLine({ efficiency })).not.toMatch(/second try/);
  });
});
