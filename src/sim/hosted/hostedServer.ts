import type { Endpoint, HostedHandler, SdkAdapter } from '../../sdk/SdkAdapter.ts';
import type { VirtualNetwork } from '../scenario.ts';
import type { TraceEventBody } from '../trace.ts';
import { bindTimers } from './bindTimers.ts';
import { HandlerScope } from './handlerScope.ts';
import { guardIo } from './ioGuard.ts';
import { virtualTimersPromises } from './virtualTimersPromises.ts';
import { DEFAULT_NETWORK, virtualFetch } from './virtualFetch.ts';

/** A user's server built for one run: its endpoint (a server of the run's SDK release) and how to let it go. */
export interface HostedServer {
  readonly endpoint: Endpoint;
  /** The user's own cleanup (`{ server, cleanup }`), called when the run ends. */
  readonly cleanup?: () => unknown;
}

/**
 * Where a hosted run's server comes from: a fresh one per run, built inside the run's sandbox
 * (its timers are virtual from the start). `src/fuzz` makes these from a user's module.
 */
export interface ServerSource {
  create(): Promise<HostedServer>;
}

/**
 * Outcomes of a hosted handler, from what it returned and whether its signal aborted while it
 * ran. A handler whose signal had aborted before it started (its cancel came in the same burst)
 * and that returns a result is like a scripted handler without steps: it never had an abort to
 * swallow, so its outcome is `result`.
 */
function outcomeOf(aborted: boolean, result: unknown, threw: boolean): 'result' | 'error' | 'aborted' | 'swallowed' {
  // A high-level server turns a tool's exception into a result with `isError`: that is the tool throwing.
  const failed = threw || (typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true);
  if (aborted) return failed ? 'aborted' : 'swallowed';
  return failed ? 'error' : 'result';
}

/**
 * The harness's side of a user's server during one run: the virtual `fetch`, the I/O guard,
 * handler-bound timers, and the observation of its `tools/call` handler (start, abort, end),
 * which the oracle judges like a scripted handler's, and of where a high-level server's tool
 * callback starts inside it (`tool-start`).
 */
export class HostedRun {
  readonly scope = new HandlerScope();
  private readonly restores: (() => void)[] = [];

  constructor(
    private readonly sdk: SdkAdapter,
    private readonly record: (e: TraceEventBody) => void,
    private readonly connOf: () => number,
  ) {}

  /** Installs the virtual network, the I/O guard, timer binding and virtual `timers/promises`; `exit` undoes them. */
  enter(network: VirtualNetwork = DEFAULT_NETWORK): void {
    const realFetch = globalThis.fetch;
    globalThis.fetch = virtualFetch(network, this.scope, this.record, this.connOf);
    this.restores.push(() => (globalThis.fetch = realFetch));
    this.restores.push(guardIo(this.scope, this.record, this.connOf));
    this.restores.push(bindTimers(this.scope, this.record));
    this.restores.push(virtualTimersPromises());
    const unmark = this.sdk.hosting?.markToolStarts(() => this.toolStarted());
    if (unmark) this.restores.push(unmark);
  }

  /** The user's tool callback starts, inside the `tools/call` handler whose frame is current. */
  private toolStarted(): void {
    const frame = this.scope.current();
    if (frame) this.record({ kind: 'tool-start', side: 'server', conn: frame.conn, id: frame.id, aborted: frame.signal.aborted });
  }

  exit(): void {
    for (const restore of this.restores.splice(0).reverse()) restore();
  }

  /** Wraps the `tools/call` handler `endpoint` registered; throws when it has none (a server without tools). */
  observe(endpoint: Endpoint): void {
    const hosting = this.sdk.hosting;
    if (!hosting) throw new Error(`${this.sdk.name}@${this.sdk.version}: this adapter cannot host a user's server.`);
    if (!hosting.wrapHandler(endpoint, 'tools/call', (inner) => this.observed(inner))) {
      throw new Error('the server registered no tools/call handler: it has no tools to fuzz.');
    }
  }

  private observed(inner: HostedHandler): HostedHandler {
    return (request, extra) => {
      const conn = this.connOf();
      const id = extra.requestId;
      const tool = typeof request.params?.name === 'string' ? request.params.name : undefined;
      const { signal } = extra;
      this.record({ kind: 'handler-start', side: 'server', conn, id, method: request.method, ...(tool !== undefined && { call: tool }) });
      const aborted = () => this.record({ kind: 'handler-abort', side: 'server', conn, id, reason: String(signal.reason) });
      const abortedAtStart = signal.aborted;
      if (abortedAtStart) aborted();
      else signal.addEventListener('abort', aborted, { once: true });
      const end = (outcome: 'result' | 'error' | 'aborted' | 'swallowed') => this.record({ kind: 'handler-end', side: 'server', conn, id, outcome });
      return this.scope.run({ conn, id, tool, signal }, () => inner(request, extra)).then(
        (result) => {
          end(outcomeOf(signal.aborted && !abortedAtStart, result, false));
          return result;
        },
        (error: unknown) => {
          end(outcomeOf(signal.aborted, undefined, true));
          throw error;
        },
      );
    };
  }
}
