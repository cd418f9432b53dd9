import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  WebStandardStreamableHTTPServerTransport,
  type WebStandardStreamableHTTPServerTransportOptions,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's Streamable HTTP client transport, unchanged except that it remembers being closed
 * (the HTTP client sends nothing on close, so the world cannot learn it from the wire).
 * @internal
 */
export class SimClientTransport extends StreamableHTTPClientTransport {
  closed = false;

  override async close(): Promise<void> {
    this.closed = true;
    return super.close();
  }
}

/**
 * The SDK's web-standard server transport, unchanged except for two observation hooks: every
 * `send()` the SDK makes is reported before it runs (so the trace has the server's sends even
 * when the transport then drops them, as JSON mode does with notifications), and close is
 * remembered.
 * @internal
 */
export class SimServerTransport extends WebStandardStreamableHTTPServerTransport {
  closed = false;

  constructor(
    options: WebStandardStreamableHTTPServerTransportOptions,
    private readonly onSend: (message: JSONRPCMessage) => void,
  ) {
    super(options);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.onSend(message);
    return super.send(message, options);
  }

  override async close(): Promise<void> {
    this.closed = true;
    return super.close();
  }
}
