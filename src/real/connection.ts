import type { Refusal } from './stdoutRefusal.ts';
import type { TraceRecorder } from '../sim/trace.ts';
import type { JsonValue } from '../util/json.ts';
import type { Inbox } from './Inbox.ts';

/**
 * What a real-time target opens connections to: a server process spoken to over stdio, or a
 * Streamable HTTP endpoint (started by mcp-sim or already running). One small interface for
 * both: `open` a connection that records every frame it writes and reads into a trace, with the
 * real time of each; `send`, `observe` (the listener), and `close` it; and what it can tell.
 * The process, URL and test-bed targets (src/targets/) each have one.
 */
export interface Endpoint {
  readonly kind: 'process' | 'url';
  /** The command or URL, as the report names it. */
  readonly label: string;
  /** What this kind of target can tell from outside, and what it cannot (the report lists both). */
  readonly visibility: TargetVisibility;
  /**
   * Opens a connection: starts the process (stdio, or `--start` for a session on a server of its
   * own) or a new session (a URL already running; `how.shared`, on the one server `--start`
   * started for many sessions). Every frame and HTTP event is recorded into `recorder`; each
   * server frame is also pushed to `inbox`, which ends when the connection does.
   */
  open(recorder: TraceRecorder, inbox: Inbox, how?: OpenHow): Promise<TargetConnection>;
  /** Stops what the endpoint keeps running between connections (the server `--start` started for many sessions). */
  release?(): Promise<void>;
  /**
   * The next shared open gets a new server (`--start`): the one running stopped answering new
   * sessions. It keeps the sessions open on it and stops at `release`. False when there is
   * nothing to renew (no server started for many sessions, or none running).
   */
  renew?(): boolean;
  /** Raised when a connection shows the target cannot be fuzzed at all (a stdio server's stdout line that is not JSON-RPC): the campaign stops with it. */
  readonly refusal?: Refusal;
}

/** How a connection is opened. */
export interface OpenHow {
  /**
   * A URL with `--start`: a session on the one server the endpoint keeps running for many
   * sessions (started once, stopped by `release`), not on a server process of its own. A stdio
   * connection is always a process of its own; a URL already running, a new session.
   * @default false
   */
  readonly shared?: boolean;
}

export interface TargetVisibility {
  readonly sees: readonly string[];
  readonly cannotSee: readonly string[];
}

/** One connection to the target: a process's stdin/stdout, or an HTTP session. */
export interface TargetConnection {
  /**
   * Writes one client frame (stdio: one line; HTTP: one POST). Recorded as a `send`. Resolves
   * once the server has it as far as the client can tell (stdio: written to the pipe, which the
   * server reads in order; HTTP: the POST's response head arrived, or it failed), so a frame that
   * must come after it on the server's side (a cancel's barrier ping) can wait. Never rejects.
   */
  send(frame: JsonValue): Promise<void>;
  /**
   * stdio only: writes `text` as one line as it is, not JSON-encoded (a rogue's frame that is not
   * JSON). Recorded as a `send` whose frame is the text. Over HTTP a body that is not JSON is
   * the HTTP rogue's (`http.rejects-bad-input`), so a URL connection has none.
   */
  readonly sendRaw?: (text: string) => void;
  /**
   * HTTP only: drops the POST stream that carries request `id` (the client disconnects without a
   * cancel). False when there is no such open stream (stdio has none).
   */
  drop(id: string | number): boolean;
  /** HTTP only: how many POST exchanges carrying a request are still open (no end of body yet); `ids`: only those carrying one of these request ids. */
  openExchanges(ids?: ReadonlySet<string | number>): number;
  /**
   * Ends the connection as a client does: stdio: stdin EOF, the grace period, SIGTERM to the
   * group, the grace period, SIGKILL (the exit is recorded); HTTP: DELETE of the session, every
   * open stream dropped, and a started process stopped. Resolves when it is all gone.
   */
  close(): Promise<void>;
  /** The process under this connection has exited (stdio) or the process started for it (HTTP). */
  readonly exited: boolean;
  /** Opening it started a server process (stdio; HTTP with `--start` on its own process); false: a session on a server already running. */
  readonly startedProcess?: boolean;
}

/** A target that cannot be fuzzed: one line for the user, exit 2 (`fuzz --stdio`, `--url`). */
export class BadTargetError extends Error {
  override name = 'BadTargetError';
  constructor(
    readonly kind: 'not-found' | 'exited' | 'not-mcp' | 'refused' | 'protocol-version' | 'start-timeout' | 'no-tools' | 'bad-option' | 'not-json-rpc',
    message: string,
  ) {
    super(message);
  }
}
