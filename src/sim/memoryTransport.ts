import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { wireCopy, type JsonValue } from '../util/json.ts';
import { Link } from './Link.ts';
import type { Side } from './scenario.ts';
import type { TraceEventBody } from './trace.ts';

/** What a transport needs from the world: a global send order and the trace. */
export interface WireContext {
  nextSeq(): number;
  record(event: TraceEventBody): void;
}

/**
 * One end of a stdio-like connection whose deliveries the scheduler controls. `send` copies
 * the message onto the outgoing link and returns; nothing arrives until `deliverHead` or
 * `deliverBurst` is chosen. Closing writes an end-of-stream the peer sees when it is delivered.
 */
export class ScheduledTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;
  peer!: ScheduledTransport;

  constructor(
    readonly side: Side,
    readonly conn: number,
    readonly outgoing: Link,
    readonly incoming: Link,
    private readonly wire: WireContext,
  ) {}

  async start(): Promise<void> {}

  get isClosed(): boolean {
    return this.closed;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const frame = wireCopy(message) as unknown as JsonValue;
    if (this.closed) {
      this.wire.record({ kind: 'send-failed', from: this.side, conn: this.conn, frame, error: 'Not connected' });
      throw new Error('Not connected');
    }
    const seq = this.wire.nextSeq();
    this.wire.record({ kind: 'send', from: this.side, conn: this.conn, seq, frame });
    if (this.outgoing.readerClosed) {
      // A pipe whose reader is gone swallows the write; the frame is lost.
      this.wire.record({ kind: 'drop', to: this.outgoing.to, conn: this.conn, seq, frame });
      return;
    }
    this.outgoing.push({ kind: 'frame', seq, frame });
  }

  async close(): Promise<void> {
    this.shutDown();
  }

  /** Hands the incoming link's head to the SDK: one frame, or the peer's end of stream. */
  deliverHead(): void {
    const item = this.incoming.shift();
    if (!item) throw new Error(`ScheduledTransport.deliverHead: nothing queued for ${this.side}`);
    if (item.kind === 'eof') {
      this.wire.record({ kind: 'eof', to: this.side, conn: this.conn });
      this.shutDown();
      return;
    }
    this.hand(item.seq, item.frame, 1);
  }

  /** Hands every queued frame up to the next end of stream over in one synchronous turn. */
  deliverBurst(): void {
    const n = this.incoming.burstSize();
    for (let k = 0; k < n; k++) {
      const item = this.incoming.shift();
      if (item?.kind === 'frame') this.hand(item.seq, item.frame, n);
    }
  }

  private hand(seq: number, frame: JsonValue, burst: number): void {
    this.wire.record({ kind: 'deliver', to: this.side, conn: this.conn, seq, frame, burst });
    this.onmessage?.(frame as unknown as JSONRPCMessage);
  }

  private shutDown(): void {
    if (this.closed) return;
    this.closed = true;
    this.outgoing.writerClosed = true;
    if (!this.outgoing.readerClosed) this.outgoing.push({ kind: 'eof', seq: this.wire.nextSeq() });
    this.incoming.readerClosed = true;
    for (const lost of this.incoming.drain()) {
      if (lost.kind === 'frame') {
        this.wire.record({ kind: 'drop', to: this.side, conn: this.conn, seq: lost.seq, frame: lost.frame });
      }
    }
    this.onclose?.();
  }
}

/** A connected pair: client end and server end, one FIFO link per direction. */
export function createScheduledPair(conn: number, wire: WireContext): [client: ScheduledTransport, server: ScheduledTransport] {
  const up = new Link('client', 'server', conn);
  const down = new Link('server', 'client', conn);
  const client = new ScheduledTransport('client', conn, up, down, wire);
  const server = new ScheduledTransport('server', conn, down, up, wire);
  client.peer = server;
  server.peer = client;
  return [client, server];
}
