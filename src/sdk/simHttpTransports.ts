import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { HttpClientTransportOptions, HttpServerTransport, HttpServerTransportOptions, StreamableHttp } from './SdkAdapter.ts';

/** A release's web-standard server transport class (1.x `server/webStandardStreamableHttp.js`, 2.x `@modelcontextprotocol/server`). */
export type HttpServerTransportClass = new (options: HttpServerTransportOptions) => HttpServerTransport;

/** A release's Streamable HTTP client transport class. */
export type HttpClientTransportClass = new (url: URL, options: HttpClientTransportOptions) => Transport;

/**
 * The simulator's Streamable HTTP transports, as subclasses of the release's own: they must
 * extend the classes of the copy that was loaded, so they are made here, once per release.
 * Both generations' classes take the same options and hooks, so one pair of subclasses serves.
 */
export function simStreamableHttp(ServerTransport: HttpServerTransportClass, ClientTransport: HttpClientTransportClass): StreamableHttp {
  /** The client transport, unchanged except that it remembers being closed (the wire cannot tell). */
  class SimClientTransport extends ClientTransport {
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
  class SimServerTransport extends ServerTransport {
    closed = false;

    constructor(
      options: HttpServerTransportOptions,
      private readonly onSend: (message: JSONRPCMessage) => void,
    ) {
      super(options);
    }

    override async send(message: JSONRPCMessage, options?: Parameters<HttpServerTransport['send']>[1]): Promise<void> {
      this.onSend(message);
      return super.send(message, options);
    }

    override async close(): Promise<void> {
      this.closed = true;
      return super.close();
    }
  }

  return {
    createServerTransport: (options) => new ServerTransport(options),
    createSimServerTransport: (options, onSend) => new SimServerTransport(options, onSend),
    createSimClientTransport: (url, options) => new SimClientTransport(url, options),
  };
}
