import { afterAll, describe, expect, it } from 'vitest';
import { correlationMapRoles } from '../../src/sdk/facts.ts';
import { defaultSdk, loadSdk } from '../../src/sdk/load.ts';
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import { SdkCopies } from './copies.ts';

const copies = new SdkCopies();
afterAll(() => copies.remove());

/** What a `tools/call` rejects with when `sdk`'s own server answers it with error `code`. */
async function rejectionFrom(sdk: SdkAdapter, code: number): Promise<unknown> {
  const [clientEnd, serverEnd] = sdk.modules!.inMemory.InMemoryTransport.createLinkedPair();
  const server = sdk.createServer();
  sdk.handle(server, 'tools/call', () => Promise.reject(sdk.handlerError(code, 'refused')));
  const client = sdk.createClient();
  await server.connect(serverEnd);
  await client.connect(clientEnd);
  const error = await sdk.request(client, 'tools/call', sdk.requestParams('tools/call', 'x'), {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  await client.close();
  return error;
}

describe('the 1.x adapter on the installed SDK', () => {
  it('should detect what 1.32.2 offers', async () => {
    const sdk = await defaultSdk();
    expect(sdk.capabilities).toEqual({ streamableHttpServer: true, streamableHttpClient: true, elicitation: true, handlerRequestId: true, requestIdSource: 'context', relatedMessages: true, progressResetsTimeout: 'when-asked', resetTimeoutOnProgress: true, maxTotalTimeout: true });
    expect(sdk.methods).toEqual(['tools/call', 'sampling/createMessage', 'elicitation/create', 'roots/list']);
    expect(sdk.http).toBeDefined();
    expect(sdk.facts).toBe(v1Facts);
    expect(sdk.generation).toBe(1);
  });

  it('should recognise an error thrown by another copy of the SDK, where instanceof cannot', async () => {
    const installed = await defaultSdk();
    const copy = await loadSdk({ kind: 'folder', path: copies.copy('errors') });
    for (const [thrower, reader] of [
      [copy, installed],
      [installed, copy],
    ] as const) {
      const error = await rejectionFrom(thrower, -32042);
      expect(error).toBeInstanceOf(thrower.modules!.types.McpError);
      expect(error).not.toBeInstanceOf(reader.modules!.types.McpError);
      expect(reader.errorCode(error)).toBe(-32042);
    }
  });

  it("should give no code for errors that are not the SDK's own", async () => {
    const sdk = await defaultSdk();
    expect(sdk.errorCode(new Error('plain'))).toBeUndefined();
    // The HTTP client's StreamableHTTPError carries an HTTP status in `code`: not a JSON-RPC code.
    expect(sdk.errorCode(new sdk.modules!.streamableHttpClient!.StreamableHTTPError(404, 'gone'))).toBeUndefined();
    expect(sdk.errorCode('MCP error -32001')).toBeUndefined();
    expect(sdk.errorCode(undefined)).toBeUndefined();
  });

  it('should answer with the code and text a scripted error asks for', async () => {
    const sdk = await defaultSdk();
    const error = await rejectionFrom(sdk, -32099);
    expect(sdk.errorCode(error)).toBe(-32099);
    expect((error as Error).message).toBe('MCP error -32099: MCP error -32099: refused');
  });

  it('should probe the private state the facts name', async () => {
    const sdk = await defaultSdk();
    const client = sdk.createClient();
    expect(sdk.probe.nextRequestId(client)).toEqual({ value: 0 });
    const maps = sdk.probe.correlationMaps(client);
    expect(Object.keys(maps)).toEqual(correlationMapRoles.map((role) => v1Facts.correlationMaps[role]));
    for (const reading of Object.values(maps)) expect(reading).toEqual({ size: 0, keys: [] });
    expect(sdk.probe.nextRequestId({} as never)).toEqual({ value: undefined, missing: '_requestMessageId not found' });
    expect(sdk.probe.correlationMaps({} as never)._responseHandlers).toEqual({ keys: [], missing: '_responseHandlers is not a Map in this SDK version' });
  });

  it('should frame stdio lines as the release does', async () => {
    const sdk = await defaultSdk();
    expect(sdk.deserializeMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(() => sdk.deserializeMessage('{"jsonrpc":"1.0","method":"x"}')).toThrow();
    expect(() => sdk.deserializeMessage('not json')).toThrow();
  });
});
