import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareSdk, bareSdkHttp } from '../../bench/harness.bench.ts';
import { defaultSdk, loadSdk } from '../../src/sdk/load.ts';

/**
 * The harness bench's bare exchanges are the floor its ratios are read against, so they must do
 * the exchange they claim: a handshake and a call answered after its progress notification, over
 * the release's in-memory pair and over its own Streamable HTTP transports.
 */
describe('the harness bench bare exchanges', () => {
  it('complete on the installed 1.x release, in memory and over HTTP, with the call answered', async () => {
    const sdk = await defaultSdk();
    const answered = { content: [{ type: 'text', text: 'ok' }] };
    expect(await bareSdk(sdk, 2)).toMatchObject([answered, answered]);
    expect(await bareSdkHttp(sdk, 2)).toMatchObject([answered, answered]);
  });

  it('over HTTP fail when the server side cannot be built (the exchange is really made)', async () => {
    const sdk = await defaultSdk();
    const broken = { ...sdk, http: { ...sdk.http!, createServerTransport: () => { throw new Error('no transport'); } } };
    await expect(bareSdkHttp(broken, 1)).rejects.toThrow('no transport');
  });

  it('name the 2.x pair when it has no web-standard transports in the adapter, or complete on it', async () => {
    const sdk = await loadSdk({ kind: 'folder', path: realpathSync(resolve('node_modules/@modelcontextprotocol')) });
    if (sdk.http === undefined) await expect(bareSdkHttp(sdk, 1)).rejects.toThrow(/web-standard transports/);
    else expect(await bareSdkHttp(sdk, 1)).toHaveLength(1);
  });
});
