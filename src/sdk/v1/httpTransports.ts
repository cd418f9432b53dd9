import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { HttpServerTransportOptions, SdkModules, StreamableHttp } from '../SdkAdapter.ts';

/**
 * The simulator's Streamable HTTP transports, as subclasses of the release's own: they must
 * extend the classes of the copy that was loaded, so they are made here, once per release.
 */
export function v1StreamableHttp(
  server: NonNullable<SdkModules['streamableHttpServer']>,
  client: NonNullable<SdkModules['streamableHttpClient']>,
): StreamableHttp {
  /** The client transport, unchanged except that it remembers being closed (the wire cannot tell). */
  class SimClientTransport extends client.StreamableHTTPClientTransport {
    closed = false;

    override async close(): Promise<void> {
      this.closed = true;
      return super.close();
    }
  }

  /**
   * The server transport, unchanged except for two observation hooks: every `send()` the SDK
   * makes is reported before it runs (so the trace has the server's sends even when the
   * transport then drops them, as JSON mode does with notifications), and close is remembered.
   */
  class SimServerTransport extends server.WebStandardStreamableHTTPServerTransport {
    closed = false;

    constructor(
      options: HttpServerTransportOptions,
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

  return {
    createServerTransport: (options) => new server.WebStandardStreamableHTTPServerTransport(options),
    createSimServerTransport: (options, onSend) => new SimServerTransport(options, onSend),
    createSimClientTransport: (url, options) => new SimClientTransport(url, options),
  };
}
