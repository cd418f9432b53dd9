import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A transport that sits between the SDK endpoint and the scheduled transport, passing
 * everything through. Subclasses override `receive` (and maybe `send`) to change what the SDK
 * sees: the stdio framing below, or the deliberately broken fixtures in `brokenWrappers.ts`.
 */
export class TransportWrapper implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(protected readonly inner: Transport) {
    inner.onmessage = (message) => this.receive(message as unknown);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** One frame from the peer, exactly as it came off the link (any JSON value). */
  protected receive(frame: unknown): void {
    this.onmessage?.(frame as JSONRPCMessage);
  }
}

/**
 * What the SDK's stdio transports do to each line before the `Protocol` sees it:
 * `deserializeMessage` (the release's, from `SdkAdapter.deserializeMessage`: JSON.parse +
 * `JSONRPCMessageSchema.parse` in 1.x), with any throw, from the parse or from the synchronous
 * part of `onmessage`, reported to `onerror` (as `StdioServerTransport.processReadBuffer`
 * does). Without it (framing `raw`), frames reach the `Protocol` unvalidated, as over the SDK's
 * `InMemoryTransport` or a custom transport.
 */
export class StdioFraming extends TransportWrapper {
  constructor(
    inner: Transport,
    private readonly deserializeMessage: (line: string) => JSONRPCMessage,
  ) {
    super(inner);
  }

  protected override receive(frame: unknown): void {
    try {
      const message = this.deserializeMessage(JSON.stringify(frame));
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
