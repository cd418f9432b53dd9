import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Two linked transports that deliver each message on a later microtask, as a copy: enough to
 * connect any release's client and server in a test without importing that release (only
 * `src/sdk/` imports the SDK by value).
 */
export function memoryPair(): { readonly client: Transport; readonly server: Transport } {
  const end = (): Transport & { peer?: Transport; closed: boolean } => ({
    closed: false,
    async start() {},
    async send(message: JSONRPCMessage) {
      if (this.closed) throw new Error('Not connected');
      const copy = JSON.parse(JSON.stringify(message)) as JSONRPCMessage;
      queueMicrotask(() => this.peer?.onmessage?.(copy));
    },
    async close() {
      if (this.closed) return;
      this.closed = true;
      this.onclose?.();
      await this.peer?.close();
    },
  });
  const client = end();
  const server = end();
  client.peer = server;
  server.peer = client;
  return { client, server };
}
