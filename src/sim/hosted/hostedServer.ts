import type { Endpoint, HostedHandler, SdkAdapter, ToolSettlement } from '../../sdk/SdkAdapter.ts';
import type { VirtualNetwork } from '../scenario.ts';
import type { AbortReach, TraceEventBody } from '../trace.ts';
import { watchAbortReach } from './abortReach.ts';
import { bindTimers } from './bindTimers.ts';
import { HandlerScope, type HandlerFrame } from './handlerScope.ts';
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

/** How a hosted tool callback settled, as the harness saw it. */
interface OwnSettlement {
  readonly threw: boolean;
  readonly isError: boolean;
}

/** What a tools/call handler's tool callback did, as the harness learns it during the handler. */
interface ToolConduct {
  /** An `McpServer` called the tool callback (`tool-start`); else the handler is the callback (low-level `Server`) or the SDK refused the call first. */
  started: boolean;
  /** The callback is running: between its start and its settlement (the whole handler when there is no `tool-start`). */
  running: boolean;
  /** An abort reached the callback (`abort-reached`). */
  reached: boolean;
  /** How the callback itself settled, when it was a tool callback an `McpServer` called. */
  own: OwnSettlement | undefined;
}

const isErrorResult = (value: unknown) => typeof value === 'object' && value !== null && (value as { isError?: unknown }).isError === true;

/**
 * The outcome of a hosted handler, judged by what its tool callback did (`own`): a callback
 * that threw ended in an error (`aborted` once its signal aborted); one that returned after an
 * abort reached it swallowed the abort, an `isError` result included (the SDK suppresses the
 * response, but the code answered a cancelled request). One that returned after an abort that
 * never reached it (it checked its signal before a last step that ignored it) returned a
 * `result`: no AbortError was raised or caught there. An `isError` result that no abort reached
 * counts as a failure, as before (on an `McpServer` that never called the tool it is the SDK's
 * refusal of the input). A handler whose signal had aborted before it started and that nothing
 * reached is like a scripted handler without steps: its outcome is `result` or `error`.
 */
function outcomeOf(own: OwnSettlement, aborted: boolean, abortedAtStart: boolean, reached: boolean): 'result' | 'error' | 'aborted' | 'swallowed' {
  if (own.threw) return aborted ? 'aborted' : 'error';
  if (aborted && reached) return 'swallowed';
  if (aborted && !abortedAtStart) return own.isError ? 'aborted' : 'result';
  return own.isError ? 'error' : 'result';
}

/**
 * The harness's side of a user's server during one run: the virtual `fetch`, the I/O guard,
 * handler-bound timers, and the observation of its `tools/call` handler (start, abort, end),
 * which the oracle judges like a scripted handler's, of where a high-level server's tool
 * callback starts and how it settles inside it (`tool-start`, `tool-end`), and of how an abort
 * reached it (`abort-reached`).
 */
export class HostedRun {
  readonly scope = new HandlerScope();
  private readonly restores: (() => void)[] = [];
  private readonly conducts = new WeakMap<HandlerFrame, ToolConduct>();

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
    this.restores.push(virtualTimersPromises(this.scope));
    const unmark = this.sdk.hosting?.markToolStarts(() => this.toolStarted());
    if (unmark) this.restores.push(unmark);
  }

  /** The user's tool callback starts, inside the `tools/call` handler whose frame is current; the function returned hears it settle. */
  private toolStarted(): ((settled: ToolSettlement) => void) | undefined {
    const frame = this.scope.current();
    const conduct = frame && this.conducts.get(frame);
    if (!frame || !conduct) return undefined;
    const { conn, id } = frame;
    this.record({ kind: 'tool-start', side: 'server', conn, id, aborted: frame.signal.aborted });
    conduct.started = true;
    conduct.running = true;
    return ({ threw, value }) => {
      conduct.running = false;
      conduct.own = { threw, isError: !threw && isErrorResult(value) };
      this.record({ kind: 'tool-end', side: 'server', conn, id, outcome: threw ? 'threw' : 'returned', ...(conduct.own.isError && { isError: true as const }) });
    };
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
      this.record({ kind: 'handler-start', side: 'server', conn, id, method: request.method, ...(tool !== undefined && { call: tool }), hosted: true });
      const aborted = () => this.record({ kind: 'handler-abort', side: 'server', conn, id, reason: String(signal.reason) });
      const abortedAtStart = signal.aborted;
      if (abortedAtStart) aborted();
      else signal.addEventListener('abort', aborted, { once: true });
      const conduct: ToolConduct = { started: false, running: true, reached: false, own: undefined };
      const reached = (via: AbortReach) => {
        if (conduct.reached || !conduct.running) return;
        conduct.reached = true;
        this.record({ kind: 'abort-reached', side: 'server', conn, id, via });
      };
      watchAbortReach(signal, () => conduct.running, reached);
      const frame: HandlerFrame = { conn, id, tool, signal, reached };
      this.conducts.set(frame, conduct);
      const end = (settled: OwnSettlement) => {
        conduct.running = false;
        // A copy whose McpServer callbacks cannot be marked (`toolStartLimit`) hides whether an
        // isError result was the callback's throw: counted as one, so a rethrow is never blamed.
        const hidden = !conduct.started && this.sdk.hosting?.toolStartLimit !== undefined && settled.isError;
        const own = conduct.started ? conduct.own ?? settled : hidden ? { threw: true, isError: false } : settled;
        this.record({ kind: 'handler-end', side: 'server', conn, id, outcome: outcomeOf(own, signal.aborted, abortedAtStart, conduct.reached) });
      };
      return this.scope.run(frame, () => inner(request, extra)).then(
        (result) => {
          end({ threw: false, isError: isErrorResult(result) });
          return result;
        },
        (error: unknown) => {
          end({ threw: true, isError: false });
          throw error;
        },
      );
    };
  }
}
