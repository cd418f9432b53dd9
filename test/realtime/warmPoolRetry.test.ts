import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/real/connection.ts';
import { WarmPool } from '../../src/real/warmPool.ts';
import { efficiencyOf } from '../../src/campaign/real/efficiency.ts';
import { efficiencyLine } from '../../src/report/realReport.ts';
import { stdioEndpoint } from '../../src/targets/index.ts';

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

describe('the report of opens tried twice', () => {
  const phases = { prepareMs: 1, runsMs: 2, findingsMs: 3 };
  const startups = [{ ms: 100, started: 'process' as const }, { ms: 120, started: 'process' as const }];

  it('states them beside the start-up, so a retry is never silent', () => {
    const efficiency = efficiencyOf([], { startups, retried: 1 }, 2, 1_000, 0, phases);
    expect(efficiency.startup.retried).toBe(1);
    expect(efficiencyLine({ efficiency })).toMatch(/start-up 120 ms median \(2 processes, 0\.2 s in all, 1 opened on a second try after a failed open\)/);
  });

  it('says nothing of them when every open succeeded first time', () => {
    const efficiency = efficiencyOf([], { startups, retried: 0 }, 2, 1_000, 0, phases);
    expect(efficiency.startup).not.toHaveProperty('retried');
    expect(efficiencyLine({ efficiency })).not.toMatch(/second try/);
  });
});
