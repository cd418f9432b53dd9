import { BadTargetError, type Endpoint, type OpenHow } from './connection.ts';
import { openConnection, type OpenConnection } from './openConnection.ts';
import { DEFAULT_PROCESS_START_MS } from '../options/defaults.ts';

/**
 * Connections started ahead of need: a fresh run takes one that already answered `initialize`
 * (a process, or a session on a server of its own), so it does not wait for the start-up, and
 * another one starts in its place while `spares` asks for it. A connection is handed out once,
 * and never used by two runs. What is still idle when the campaign ends is closed, unjudged.
 */
export class WarmPool {
  /** How many connections to keep started ahead. */
  spares = 0;
  /** Every connection it opened: how long each took (spawn or session open to `initialized`), and what it started. */
  readonly startups: { readonly ms: number; readonly started: OpenConnection['started'] }[] = [];
  private readonly ready: Promise<OpenConnection>[] = [];
  private closed = false;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly how: OpenHow = {},
    /** How long a connection has to answer `initialize`, ms. */
    private readonly startMs: number = DEFAULT_PROCESS_START_MS,
  ) {}

  /** A fresh connection: a warm one when there is one (it may still be starting), else one opened now. */
  take(): Promise<OpenConnection> {
    const next = this.ready.shift() ?? this.start();
    this.fill();
    return next;
  }

  /** Keeps `n` connections started ahead from now on (each one taken is replaced). */
  warm(n: number): void {
    this.spares = n;
    this.fill();
  }

  /** Starts connections now until `n` are ready or starting, without replacing them once taken. */
  startAhead(n: number): void {
    const spares = this.spares;
    this.spares = Math.max(spares, n);
    this.fill();
    this.spares = spares;
  }

  /** Closes the idle ones; nothing is started after. */
  async close(): Promise<void> {
    this.closed = true;
    this.spares = 0;
    const idle = this.ready.splice(0);
    await Promise.all(idle.map(async (p) => (await p.catch(() => undefined))?.conn.close().catch(() => undefined)));
  }

  private fill(): void {
    while (!this.closed && this.ready.length < this.spares) {
      const started = this.start();
      // A spare that fails is the next taker's error; nothing waits on it until then.
      started.catch(() => undefined);
      this.ready.push(started);
    }
  }

  /** Opens that failed once and were tried again (the target had opened connections before). */
  reopened = 0;
  /** Of those, the ones tried on a new server (`Endpoint.renew`): the running one had stopped answering `initialize`. */
  renewed = 0;

  /**
   * One connection opened. A target that opened connections before gets a second try when one
   * fails: an HTTP client may reuse a keep-alive socket the server is closing at that moment
   * (`UND_ERR_SOCKET` on the `initialize` POST), which says nothing of the server. A shared
   * server (`--start`) that stopped answering `initialize` is renewed first (its workers may all
   * be held by calls that never end, which the campaign judges; new sessions go to a new one).
   * A target that fails twice in a row, or never opened one, is the campaign's error.
   */
  private async start(): Promise<OpenConnection> {
    let open: OpenConnection;
    try {
      open = await openConnection(this.endpoint, this.how, this.startMs);
    } catch (error) {
      if (this.startups.length === 0 || this.closed) throw error;
      this.reopened++;
      if (this.how.shared && error instanceof BadTargetError && error.kind === 'start-timeout' && this.endpoint.renew?.()) this.renewed++;
      try {
        open = await openConnection(this.endpoint, this.how, this.startMs);
      } catch (again) {
        // A server that answered before and now answers no one: say that, not "is it an MCP server?".
        if (again instanceof BadTargetError && again.kind === 'start-timeout') {
          throw new BadTargetError('start-timeout', `mcp-sim: the server answered initialize on ${this.startups.length} connection(s), then twice not within ${this.startMs} ms: it stopped taking new connections (are its workers all held by calls that never end?), and the campaign cannot go on.`);
        }
        throw again;
      }
    }
    this.startups.push({ ms: open.startupMs, started: open.started });
    return open;
  }
}
