import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectPair } from '../../bench/lib/sdkPair.ts';
import { openHttpSession } from '../../bench/lib/httpSession.ts';
import { Gate } from '../../bench/lib/latch.ts';
import { settle } from '../../bench/lib/realClock.ts';
import { defaultSdk, loadSdk } from '../../src/sdk/load.ts';
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';

/**
 * The benchmarks' SDK endpoints are built through the adapter, so they must work on both
 * generations: the installed 1.x package and the 2.x client + server pair beside it.
 */
const releases: ReadonlyArray<readonly [string, () => Promise<SdkAdapter>]> = [
  ['1.x (installed)', defaultSdk],
  ['2.x (the @modelcontextprotocol pair)', () => loadSdk({ kind: 'folder', path: realpathSync(resolve('node_modules/@modelcontextprotocol')) })],
];

describe.each(releases)('bench endpoints on %s', (_label, load) => {
  it('an in-memory pair completes one call and one cancelled call, and its correlation maps end empty', async () => {
    const sdk = await load();
    const endpoint = await connectPair(sdk);
    endpoint.gate = new Gate(1);
    const answered = endpoint.call();
    await endpoint.gate.arrived.done;
    expect(endpoint.inFlight()).toBe(1);
    endpoint.gate.open();
    expect(await answered).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });

    endpoint.gate = new Gate(1, 1);
    const controller = new AbortController();
    const cancelled = endpoint.call({ signal: controller.signal });
    await endpoint.gate.arrived.done;
    controller.abort(new Error('bench abort'));
    await expect(cancelled).rejects.toThrow('bench abort');
    await endpoint.gate.aborted.done; // the server's handler saw the cancellation
    await settle(); // as the workloads do before a probe: the server drops its abort controller a turn later

    const probes = endpoint.probe();
    for (const probe of probes) {
      expect(probe.sizes['_responseHandlers']).toBe(0); // read, not absent: the leak check still works
      expect(probe.sizes['_requestHandlerAbortControllers']).toBe(0);
    }
    expect(endpoint.errors).toEqual([]);
    await endpoint.close();
  });

  it('a Streamable HTTP session negotiates its protocol version and answers one POST in each mode', async () => {
    const sdk = await load();
    for (const mode of ['json', 'sse'] as const) {
      const endpoint = await openHttpSession(sdk, mode);
      endpoint.gate = new Gate(1);
      const body = endpoint.exchange(endpoint.prepare(7));
      await endpoint.gate.arrived.done;
      endpoint.gate.open();
      expect(await body).toContain('"id":7');
      expect(endpoint.errors).toEqual([]);
      const [transportMaps] = endpoint.probe();
      expect(transportMaps!.absent).toEqual([]);
      await endpoint.close();
    }
  });
});
