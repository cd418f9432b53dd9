import type { Endpoint, HandlerContext, RequestOptions, SdkAdapter } from '../sdk/SdkAdapter.ts';
import type { ModernEra } from '../sdk/modern/ModernEra.ts';
import { messageOf } from '../util/errors.ts';
import type { SimAction } from './actions.ts';
import { applyAdapterFaults, hasAdapterFault } from './adapterFaults.ts';
import type { JsonValue } from '../util/json.ts';
import { HttpNetwork, type HttpHost, type OpenExchange } from './http/HttpNetwork.ts';
import { resolveHttpMode } from './http/resolveHttpMode.ts';
import { createScheduledPair, type ScheduledTransport } from './memoryTransport.ts';
import {
  methodSender,
  otherSide,
  type CallOptions,
  type CallerAction,
  type HandlerProgram,
  type HandlerStep,
  type RequestMethod,
  type Scenario,
  type Side,
} from './scenario.ts';
import { runScriptedHandler, type Gate, type HandlerHost } from './scriptedHandler.ts';
import type { TraceRecorder, WireId } from './trace.ts';
import type { VirtualClock } from './VirtualClock.ts';
import type { HostedRun, HostedServer } from './hosted/hostedServer.ts';

/**
 * The endpoint operations the world uses: the adapter's own (session era), or its 2026-07-28
 * era's (`SdkAdapter.modern`) on the `http-2026` profile.
 */
type EndpointApi = Pick<
  ModernEra,
  'methods' | 'createClient' | 'createServer' | 'handle' | 'request' | 'requestParams' | 'result' | 'errorCode' | 'handlerError' | 'nextRequestId'
>;

/** The adapter's endpoint operations in the shape the 2026-07-28 era also has. */
function sessionEraApi(sdk: SdkAdapter): EndpointApi {
  return {
    methods: sdk.methods,
    createClient: () => sdk.createClient(),
    createServer: () => sdk.createServer(),
    handle: (endpoint, method, handler) => sdk.handle(endpoint, method, handler),
    request: (endpoint, method, params, options) => sdk.request(endpoint, method, params, options),
    requestParams: (method, handler, meta, args) => sdk.requestParams(method, handler, meta, args),
    result: (method) => sdk.result(method),
    errorCode: (error) => sdk.errorCode(error),
    handlerError: (code, message) => sdk.handlerError(code, message),
    nextRequestId: (endpoint) => sdk.probe.nextRequestId(endpoint).value,
  };
}

/** The program a receiver runs when no scenario handler was registered for a request. */
const answerAtOnce: HandlerProgram = { steps: [], end: { kind: 'result' }, onAbort: 'honour' };

/**
 * The simulated system: a real SDK `Client` and `Server` over scheduled transports, scripted
 * handlers, and the workload's callers. It only acts when told (`perform`); what may be done
 * next is `enabledActions()`, in a stable natural order.
 */
export class World {
  readonly server: Endpoint;
  /**
   * Every client, by index (`http.clients`; one unless the scenario asks for more): client 0 is
   * `client`. Each has its own `Server` (`servers[k]`, `server` for 0), since the SDK's Protocol
   * serves one transport at a time; the http network routes by session id to them. A fresh
   * reconnect (memory) replaces client 0's entry with a new `Client`.
   */
  readonly clients: Endpoint[];
  readonly servers: Endpoint[];
  /**
   * `Client`s a fresh reconnect replaced, oldest first, with the last connection each served:
   * closed, but the end-state probe still reads their maps (a leak does not end with the object's use).
   */
  readonly retiredClients: { readonly client: number; readonly conn: number; readonly endpoint: Endpoint }[] = [];
  /** Every transport ever connected, oldest first: old links may still hold frames. */
  readonly transports: ScheduledTransport[] = [];
  /** The last connection number handed out; numbers are unique across clients. */
  private conn = 0;
  /** The current connection of each client. */
  private readonly clientConns: number[] = [0];
  private seq = 0;
  private nextAction = 0;
  /** Connections whose handshake is under way (caller actions wait for them). */
  private connecting = 0;
  private readonly gates = new Map<number, Gate>();
  private readonly signals = new Map<string, AbortController>();
  /** The callers' named `AbortSignal`s, read-only (the oracle counts listeners left on them). */
  get callerSignals(): ReadonlyMap<string, AbortSignal> {
    return new Map([...this.signals].map(([name, c]) => [name, c.signal]));
  }
  /** Which scenario handler answers a request, by `receiver:conn:id`. */
  private readonly routes = new Map<string, string>();
  /** Calls started and not yet settled, by label. */
  readonly openCalls = new Set<string>();
  /** The http profile's network: exchanges, SSE streams, sessions (`undefined` on memory). */
  readonly http: HttpNetwork | undefined;
  /** Client and server operations of the era the profile runs. */
  private readonly api: EndpointApi;

  constructor(
    readonly scenario: Scenario,
    private readonly trace: TraceRecorder,
    readonly clock: VirtualClock,
    /** The SDK release under test: endpoints, handlers, requests and the probe go through it. */
    readonly sdk: SdkAdapter,
    /** A user's server in place of the scripted one (`Scenario.server: 'hosted'`), and the harness's watch over it. */
    private readonly hosted?: { readonly server: HostedServer; readonly run: HostedRun },
  ) {
    const modern = scenario.profile === 'http-2026' ? (sdk.modern ?? noModernEra(sdk)) : undefined;
    this.api = modern ?? sessionEraApi(sdk);
    // 2026-07-28 has no session: this `Server` is never connected (each POST gets its own).
    this.server = hosted ? hosted.server.endpoint : this.api.createServer();
    this.clients = [this.api.createClient()];
    this.servers = [this.server];
    const clients = scenario.profile === 'http' ? (scenario.http?.clients ?? 1) : 1;
    for (let k = 1; k < clients; k++) {
      this.clients.push(this.api.createClient());
      this.servers.push(this.api.createServer());
      this.clientConns.push(0);
    }
    for (let k = 0; k < clients; k++) {
      for (const side of ['client', 'server'] as const) this.wire(side, k);
    }
    const host: HttpHost = { nextSeq: () => ++this.seq, record: (e) => this.trace.record(e), createServer: () => this.createRequestServer() };
    this.http =
      scenario.profile === 'http'
        ? new HttpNetwork(host, resolveHttpMode(scenario.http), sdk.http ?? noHttp(sdk))
        : modern
          ? // No session, no event store; the per-request entry shapes each response itself.
            new HttpNetwork(host, resolveHttpMode({ stateful: false, response: 'sse', eventStore: false }), undefined, modern)
          : undefined;
  }

  /** Client 0's current SDK `Client` (a fresh reconnect replaces it). */
  get client(): Endpoint {
    return this.clients[0]!;
  }

  /**
   * Wires client `k`'s endpoint on `side` into the trace and the scripted handlers: its
   * `onerror`, its `onclose`, and the handlers of the requests its peer sends it. A fresh
   * `Client` is wired by the same code as the first, so it behaves the same.
   */
  private wire(side: Side, k: number): void {
    const endpoint = this.endpointOf(side, k);
    endpoint.onerror = (error: Error) => this.trace.record({ kind: 'onerror', side, message: error.message });
    endpoint.onclose = () => {
      this.trace.record({ kind: 'close', side, conn: this.clientConns[k]! });
      // Hosts call a server's cleanup when its session ends (the `{ server, cleanup }` convention).
      if (side === 'server') this.cleanUpHosted();
    };
    // A hosted server answers with its own handlers; the harness only watches its tools/call one.
    if (side === 'server' && this.hosted) return this.hosted.run.observe(endpoint);
    for (const method of this.api.methods) {
      if (otherSide(methodSender[method]) !== side) continue;
      this.api.handle(endpoint, method, (_request, context) => this.handle(side, method, context, k));
    }
  }

  /** http profile: HTTP exchanges not in a final state at this point (the liveness check's input). */
  openExchanges(): OpenExchange[] {
    return this.http?.openExchanges() ?? [];
  }

  /** Connects each client for the first time; the handshakes themselves run under the scheduler. */
  start(): void {
    for (let k = 0; k < this.clients.length; k++) this.connect(k);
  }

  /** The newest connection (of any client). */
  get currentConn(): number {
    return this.conn;
  }

  /** Client 0's endpoint on `side`. */
  endpoint(side: Side): Endpoint {
    return side === 'client' ? this.client : this.server;
  }

  /** Client `client`'s endpoint on `side`: its `Client`, or the `Server` that serves its session. */
  endpointOf(side: Side, client: number): Endpoint {
    const endpoint = (side === 'client' ? this.clients : this.servers)[client];
    if (!endpoint) throw new Error(`World.endpointOf: no client ${client}; the scenario has ${this.clients.length}.`);
    return endpoint;
  }

  /** Which client a connection belongs to: 0 on memory (one client), its owner on http. */
  clientOf(conn: number): number {
    return this.http?.connections.find((c) => c.conn === conn)?.clientIndex ?? 0;
  }

  /** True once every caller action of the workload was performed. */
  get workloadDone(): boolean {
    return this.nextAction >= this.scenario.actions.length;
  }

  enabledActions(): SimAction[] {
    const actions: SimAction[] = [];
    const withQueue = this.transports
      .filter((t) => t.incoming.size > 0)
      .sort((a, b) => a.incoming.peek()!.seq - b.incoming.peek()!.seq);
    for (const to of withQueue) actions.push({ kind: 'deliver', to });
    for (const to of withQueue) {
      const size = to.incoming.burstSize();
      if (size >= 2) actions.push({ kind: 'burst', to, size });
    }
    if (this.http) for (const delivery of this.http.deliveries()) actions.push({ kind: 'http', delivery });
    for (const gate of this.gates.values()) actions.push({ kind: 'step', gate });
    const caller = this.scenario.actions[this.nextAction];
    if (caller && this.callerEnabled(caller)) actions.push({ kind: 'caller', index: this.nextAction, action: caller });
    const timer = this.clock.nextTimer();
    if (timer) actions.push({ kind: 'timer', timer });
    return actions;
  }

  perform(action: SimAction): void {
    switch (action.kind) {
      case 'deliver':
        return action.to.deliverHead();
      case 'burst':
        return action.to.deliverBurst();
      case 'http':
        return this.http!.perform(action.delivery);
      case 'step':
        this.gates.delete(action.gate.seq);
        return action.gate.open();
      case 'caller':
        this.nextAction++;
        return this.performCaller(action.action);
      case 'timer':
        this.trace.record({ kind: 'timer', id: action.timer.id, label: action.timer.label }, action.timer.atMs);
        return this.clock.fireNext();
    }
  }

  /**
   * Lets go of the run. Nothing needs closing: every timer belongs to the virtual clock, which is
   * discarded, and handlers still waiting on a gate are plain garbage once the world is dropped.
   * Opening their gates or closing the SDK here would only run code outside the trace.
   */
  teardown(): void {
    this.gates.clear();
    this.cleanUpHosted();
  }

  private hostedCleanedUp = false;

  /** The hosted server's own cleanup, once: when its connection closes, else when the run ends. */
  private cleanUpHosted(): void {
    if (!this.hosted?.server.cleanup || this.hostedCleanedUp) return;
    this.hostedCleanedUp = true;
    try {
      void Promise.resolve(this.hosted.server.cleanup()).catch(() => {});
    } catch {
      // A cleanup that throws is the server's business; the run goes on.
    }
  }

  private callerEnabled(action: CallerAction): boolean {
    if (this.connecting) return false;
    if (action.kind === 'reconnect') return this.http ? (this.http.current(action.client ?? 0)?.halfClosed ?? true) : this.transports.every((t) => t.isClosed);
    return true;
  }

  private performCaller(action: CallerAction): void {
    switch (action.kind) {
      case 'call':
        // The settlement is in the trace; the rejection itself is the caller's, not an escape.
        void this.startCall(action.call, action.method, action.handler, action.options, action.client ?? 0, undefined, undefined, action.arguments).catch(() => {});
        return;
      case 'abort': {
        const controller = this.signal(action.signal);
        this.trace.record({ kind: 'abort-signal', signal: action.signal });
        return controller.abort(`signal ${action.signal} aborted by its caller`);
      }
      case 'close':
        void this.endpointOf(action.side, action.client ?? 0).close().catch(() => {});
        return;
      case 'reconnect':
        return this.connect(action.client ?? 0, action.fresh ?? false);
      case 'http-post':
        void this.http?.post(action.body, action.client ?? 0).catch(() => {});
        return;
      case 'http-drop':
        return this.http?.dropStreams(action.client ?? 0);
    }
  }

  /** Connects client `client` over new transports; `fresh` (memory): with a new SDK `Client` first. */
  private connect(client: number, fresh = false): void {
    if (this.http) return this.connectHttp(this.http, client);
    if (fresh) this.replaceClient(client);
    const sdkClient = this.client;
    const conn = ++this.conn;
    this.clientConns[0] = conn;
    const [clientEnd, serverEnd] = createScheduledPair(conn, {
      nextSeq: () => ++this.seq,
      record: (e) => this.trace.record(e),
    });
    this.transports.push(clientEnd, serverEnd);
    applyAdapterFaults(this.scenario.adapterFaults, clientEnd);
    applyAdapterFaults(this.scenario.adapterFaults, serverEnd);
    this.trace.record({ kind: 'connect', conn, ...(fresh && { fresh }) });
    this.connecting++;
    void this.server
      .connect(serverEnd)
      .then(() => sdkClient.connect(clientEnd))
      .then(
        () => this.trace.record({ kind: 'ready', conn }),
        (error: unknown) => this.trace.record({ kind: 'ready', conn, error: messageOf(error) }),
      )
      .finally(() => {
        this.connecting--;
      });
  }

  /**
   * A new client process after a disconnect: a new SDK `Client` takes client `client`'s place
   * for every later call. The old one is closed already (a reconnect waits for every transport
   * to close), so nothing of it runs on except handlers it still had going.
   */
  private replaceClient(client: number): void {
    this.retiredClients.push({ client, conn: this.clientConns[client]!, endpoint: this.endpointOf('client', client) });
    this.clients[client] = this.api.createClient();
    this.wire('client', client);
  }

  /**
   * http profile: a new session over new transports. The HTTP client tells the server nothing
   * when it closes, so whichever end of the previous session is still open is closed first, as
   * an application starting over does (one `Server` object serves one session at a time).
   */
  private connectHttp(http: HttpNetwork, client: number): void {
    const sdkClient = this.endpointOf('client', client);
    const sdkServer = this.endpointOf('server', client);
    const previous = http.current(client);
    const stale: Promise<unknown>[] = [];
    if (previous && !previous.client.closed) stale.push(sdkClient.close());
    if (previous?.server && !previous.server.closed) stale.push(sdkServer.close());
    const conn = ++this.conn;
    this.clientConns[client] = conn;
    const ends = http.connect(conn, client);
    this.trace.record({ kind: 'connect', conn, ...(client > 0 && { client }) });
    this.connecting++;
    void Promise.all(stale)
      .then(() => ends.server && sdkServer.connect(ends.server))
      .then(() => sdkClient.connect(ends.client))
      .then(
        () => this.trace.record({ kind: 'ready', conn }),
        (error: unknown) => this.trace.record({ kind: 'ready', conn, error: messageOf(error) }),
      )
      .finally(() => {
        this.connecting--;
      });
  }

  /** A fresh `Server` with the scenario's handlers: stateless HTTP builds one per POST. */
  private createRequestServer(): Endpoint {
    const server = this.api.createServer();
    server.onerror = (error: Error) => this.trace.record({ kind: 'onerror', side: 'server', message: error.message });
    for (const method of this.api.methods) {
      if (methodSender[method] !== 'client') continue;
      this.api.handle(server, method, (_request, context) => this.handle('server', method, context, 0));
    }
    return server;
  }

  private signal(name: string): AbortController {
    let controller = this.signals.get(name);
    if (!controller) this.signals.set(name, (controller = new AbortController()));
    return controller;
  }

  /** Sends a request through the real SDK and records how the call settles. */
  private startCall(
    call: string,
    method: RequestMethod,
    handler: string | undefined,
    options: CallOptions,
    client: number,
    from: Side = methodSender[method],
    via?: HandlerContext,
    args?: Readonly<Record<string, unknown>>,
  ): Promise<unknown> {
    const endpoint = this.endpointOf(from, client);
    const conn = this.clientConns[client]!;
    if (!this.api.methods.includes(method)) {
      this.unscripted(from, `call ${call}`, `${this.sdk.name}@${this.sdk.version} has no ${method}: the call was not made`);
      return Promise.reject(new Error(`${method} is not in this SDK release`));
    }
    options = this.optionsTheReleaseHas(from, call, options);
    const id = this.api.nextRequestId(endpoint);
    if (id !== undefined && handler !== undefined) this.routes.set(`${otherSide(from)}:${conn}:${id}`, handler);
    if (id === undefined && handler !== undefined) {
      this.unscripted(from, `call ${call}`, `the id of its request cannot be read before it is sent, so handler ${handler} is never found for it`);
    }
    const sdkOptions: RequestOptions = {};
    const faults = this.scenario.adapterFaults;
    if (options.timeoutMs !== undefined && !hasAdapterFault(faults, from, 'drop-timeout-option')) sdkOptions.timeout = options.timeoutMs;
    if (options.resetTimeoutOnProgress !== undefined && !hasAdapterFault(faults, from, 'drop-reset-option')) {
      sdkOptions.resetTimeoutOnProgress = options.resetTimeoutOnProgress;
    }
    if (options.maxTotalTimeoutMs !== undefined && !hasAdapterFault(faults, from, 'drop-max-total-option')) sdkOptions.maxTotalTimeout = options.maxTotalTimeoutMs;
    if (hasAdapterFault(faults, from, 'force-reset-option')) sdkOptions.resetTimeoutOnProgress = true;
    if (options.signal !== undefined) sdkOptions.signal = this.signal(options.signal).signal;
    if (options.onprogress) {
      sdkOptions.onprogress = (p) =>
        this.trace.record({
          kind: 'onprogress',
          call,
          progress: p.progress,
          ...(p.total !== undefined && { total: p.total }),
        });
    }
    this.trace.record({ kind: 'call-start', call, from, conn, method, id, options: options as JsonValue });
    this.openCalls.add(call);
    const params = this.api.requestParams(method, handler ?? 'default', options.meta, args);
    const sent = via ? via.sendRequest(method, params, sdkOptions) : this.api.request(endpoint, method, params, sdkOptions);
    return sent.then(
      (value) => {
        this.openCalls.delete(call);
        this.trace.record({ kind: 'call-settle', call, from, outcome: 'resolved' });
        return value;
      },
      (error: unknown) => {
        this.openCalls.delete(call);
        const code = this.api.errorCode(error);
        this.trace.record({
          kind: 'call-settle',
          call,
          from,
          outcome: 'rejected',
          ...(code !== undefined && { code }),
          message: messageOf(error),
        });
        throw error;
      },
    );
  }

  /** Records that `part` could not be driven as scripted on this release (`harness.as-scripted`). */
  private unscripted(side: Side, part: string, why: string): void {
    this.trace.record({ kind: 'unscripted', side, part, why });
  }

  /**
   * `options` without the call options the release does not have (it would ignore them): each
   * one dropped is recorded, and the trace's call then names the options the call really ran with.
   */
  private optionsTheReleaseHas(side: Side, call: string, options: CallOptions): CallOptions {
    const caps = this.sdk.capabilities;
    const release = `${this.sdk.name}@${this.sdk.version}`;
    let kept = options;
    if (options.resetTimeoutOnProgress === true && !caps.resetTimeoutOnProgress) {
      const { resetTimeoutOnProgress: _, ...rest } = kept;
      kept = rest;
      this.unscripted(side, `call ${call}`, `${release} has no option resetTimeoutOnProgress: the call ran without it`);
    }
    if (options.maxTotalTimeoutMs !== undefined && !caps.maxTotalTimeout) {
      const { maxTotalTimeoutMs: _, ...rest } = kept;
      kept = rest;
      this.unscripted(side, `call ${call}`, `${release} has no option maxTotalTimeout: the call ran without it`);
    }
    return kept;
  }

  /** The SDK's request handler on `side`: looks up the scripted program and runs it. */
  private handle(side: Side, method: RequestMethod, context: HandlerContext, client: number): Promise<Record<string, unknown>> {
    const conn = this.clientConns[client]!;
    const id = context.requestId;
    if (id === undefined) this.unscripted(side, `a ${method} request`, 'its handler was given no request id, so no scripted handler is found for it');
    const name = this.routes.get(`${side}:${conn}:${id}`);
    const program = (name !== undefined && this.scenario.handlers[name]) || answerAtOnce;
    this.trace.record({ kind: 'handler-start', side, conn, id, method, ...(name !== undefined && { call: name }) });
    return runScriptedHandler(
      this.host,
      { side, conn, id, method },
      program,
      {
        signal: context.signal,
        progressToken: context.progressToken,
        sendProgress: (progressToken, progress, total, message) =>
          context.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) },
          }),
        callPeer: (peerMethod, peerHandler, timeoutMs) =>
          this.startCall(
            // Labels are unique per scenario: a second client's handler ids repeat the first's.
            `${side}:${id}→${peerMethod}${client > 0 ? `@client${client}` : ''}`,
            peerMethod,
            peerHandler,
            timeoutMs !== undefined ? { timeoutMs } : {},
            client,
            side,
            context,
          ),
      },
      () => this.api.result(method),
    );
  }

  private readonly host: HandlerHost = {
    record: (e) => this.trace.record(e),
    error: (code, message) => this.api.handlerError(code, message),
    gate: (side: Side, conn: number, id: WireId, index: number, step: HandlerStep) => {
      const seq = ++this.seq;
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      this.gates.set(seq, { seq, side, conn, id, index, step, open });
      return { opened, withdraw: () => this.gates.delete(seq) };
    },
  };
}

function noHttp(sdk: SdkAdapter): never {
  throw new Error(`World: ${sdk.name}@${sdk.version} has no Streamable HTTP transports, which the http profile needs.`);
}

function noModernEra(sdk: SdkAdapter): never {
  throw new Error(`World: ${sdk.name}@${sdk.version} has no 2026-07-28 era (the http-2026 profile needs the 2.x packages).`);
}
