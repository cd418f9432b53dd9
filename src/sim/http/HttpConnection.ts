import type { SimClientTransport, SimServerTransport } from '../../sdk/SdkAdapter.ts';
import type { JsonValue } from '../../util/json.ts';

/** A frame the server's SDK sent: its JSON text, its seq, and the frame as the trace has it. */
export interface SentFrame {
  readonly text: string;
  readonly seq: number;
  readonly frame: JsonValue;
}

/**
 * One connection of the http profile: the client transport, whose `fetch` leads into the
 * network, and the server side: one session transport (stateful) or none (stateless: the
 * network builds a transport and `Server` per POST).
 * @internal
 */
export class HttpConnection {
  client!: SimClientTransport;
  /** Stateful mode only. */
  server: SimServerTransport | undefined;
  /** Frames the server's SDK sent and no stream or body has carried yet, by their JSON text. */
  private readonly unsent: SentFrame[] = [];

  constructor(
    readonly conn: number,
    /** Which of the scenario's clients owns it (0 unless `http.clients` > 1). */
    readonly clientIndex = 0,
  ) {}

  /** The connection cannot carry a new session any more: one of its ends closed. */
  get halfClosed(): boolean {
    return this.client.closed || (this.server?.closed ?? false);
  }

  noteSend(sent: SentFrame): void {
    this.unsent.push(sent);
  }

  /**
   * The oldest `send` of this text (its seq, and the frame the trace recorded for it, which the
   * body or stream carrying it shares), or `undefined` (the text was not sent by the SDK: a replay).
   */
  takeSend(text: string): SentFrame | undefined {
    const at = this.unsent.findIndex((u) => u.text === text);
    if (at < 0) return undefined;
    return this.unsent.splice(at, 1)[0];
  }
}
