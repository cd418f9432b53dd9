import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { defaultSdk } from '../sdk/load.ts';
import type { Endpoint, RequestOptions, SdkAdapter } from '../sdk/SdkAdapter.ts';
import { describeAction } from '../sim/actions.ts';
import { DEFAULT_SEED } from '../sim/defaults.ts';
import type { JsonValue } from '../util/json.ts';
import { createScheduledPair, type ScheduledTransport } from '../sim/memoryTransport.ts';
import { quiesce } from '../sim/realGlobals.ts';
import { otherSide, type RequestMethod, type Side } from '../sim/scenario.ts';
import { traceHash, type TraceEvent, type TraceRecorder, type WireId } from '../sim/trace.ts';
import { withTrace } from '../sim/withSandbox.ts';
import { describeError, messageOf } from '../util/errors.ts';
import { isJsonObject, isRequestFrame } from '../util/jsonrpc.ts';
import { StdioFraming } from './TransportWrapper.ts';

/**
 * How frames reach the SDK's `Protocol`: `raw` hands each frame over as it is (the scheduled
 * memory transport, like the SDK's `InMemoryTransport`); `stdio` first runs the SDK's own
 * stdio deserializer, which rejects what is not a JSON-RPC message before the `Protocol` sees it.
 */
export type RogueFraming = 'raw' | 'stdio';

/** The rogue client's spec revision in its `initialize`. */
export const ROGUE_PROTOCOL_VERSION = '2025-11-25';

/**
 * Id of the rogue's follow-up `ping`, after its frames (either target): whether the SDK side
 * answers it is how the model judges `rpc.survives-bad-input`.
 */
export const FOLLOW_UP_ID = 'rogue-follow-up';

/** Tool names the SDK server's `tools/call` handler knows: `hang` waits for its abort, the rest answer at once. */
export const HANG_TOOL = 'hang';

/**
 * Id the real `Client` gives its pending call (client target, `pendingCall`): 1.x numbers
 * requests from 0 and `initialize` takes 0. Its progress token is the same number.
 */
export const PENDING_CALL_ID = 1;

export interface RogueRunOptions {
  /** The real SDK endpoint under attack; the rogue plays the other side. @default 'server' */
  readonly target?: Side;
  /** @default 'raw' */
  readonly framing?: RogueFraming;
  /** Seed of `Math.random` and `crypto.randomUUID`. @default DEFAULT_SEED */
  readonly seed?: number;
  /** A label for the trace's attack action (the catalogue kind's name). @default 'frames' */
  readonly label?: string;
  /** Id of the rogue client's `initialize` (server target). @default 0, as the SDK client does */
  readonly initializeId?: WireId;
  /**
   * Frames the rogue writes after the handshake and before the attack, each delivered and
   * answered (e.g. a `tools/call` of the `hang` tool, so a cancel has something to hit).
   * @default []
   */
  readonly setup?: readonly JsonValue[];
  /**
   * Client target: before the attack the real client calls `tools/call` (with `onprogress`, so
   * a progress token) and the rogue server holds it; after the attack the rogue answers it
   * unless it already settled. Its id and token are `PENDING_CALL_ID`. @default false
   */
  readonly pendingCall?: boolean;
  /** Client target: the caller aborts the pending call before the attack (the SDK sends a cancel). @default false */
  readonly abortPendingCall?: boolean;
  /**
   * Interposes on the SDK endpoint's transport (outside the framing): fixtures use it to make a
   * deliberately broken endpoint. @default none
   */
  readonly wrap?: (transport: Transport) => Transport;
  /** The SDK release under attack. @default the one installed next to mcp-sim (`defaultSdk()`) */
  readonly sdk?: SdkAdapter;
}

export interface RogueRunResult {
  readonly trace: readonly TraceEvent[];
  readonly hash: string;
  readonly target: Side;
  readonly framing: RogueFraming;
  /** Trace indexes of the attack: from its action event up to (not including) the clean-up and follow-up. */
  readonly attack: { readonly start: number; readonly end: number };
}

/**
 * Connects a real SDK endpoint (`target`) to a raw rogue peer that first performs a correct
 * `initialize` handshake, then writes `frames` (any JSON values), each delivered on its own
 * step and followed by quiescence, then pings the SDK side (`FOLLOW_UP_ID`) and closes its end
 * of the connection, as a run ends. The trace is the simulator's format, judged by the model
 * (`judge()` with the rogue's side: its own breaches are no findings). Runs in the same sandbox
 * as `runScenario` (virtual time, seeded chance, captured escapes) and in a fixed order, so it is
 * a pure function of (frames, options, SDK build): same inputs, same trace hash.
 */
export async function runRogue(frames: readonly JsonValue[], options: RogueRunOptions = {}): Promise<RogueRunResult> {
  const target = options.target ?? 'server';
  const framing = options.framing ?? 'raw';
  if (target !== 'server' && target !== 'client') throw new Error(`runRogue: options.target must be 'server' or 'client', got ${String(target)}`);
  if (framing !== 'raw' && framing !== 'stdio') throw new Error(`runRogue: options.framing must be 'raw' or 'stdio', got ${String(framing)}`);
  if (target === 'server' && (options.pendingCall || options.abortPendingCall)) {
    throw new Error('runRogue: options.pendingCall and abortPendingCall need target "client"; a server target opens work with options.setup frames instead.');
  }
  if (options.abortPendingCall && !options.pendingCall) throw new Error('runRogue: options.abortPendingCall needs options.pendingCall: true.');

  const sdk = options.sdk ?? (await defaultSdk());
  const attack = { start: 0, end: 0 };
  const trace = await withTrace(options.seed ?? DEFAULT_SEED, async (trace) => {
    const run = new RogueRun(sdk, target, trace, options);
    await run.connect(framing);
    await run.prepare();
    attack.start = trace.events.length;
    trace.step++;
    trace.record({ kind: 'action', action: `rogue ${otherSide(target)} attacks: ${options.label ?? 'frames'} (${frames.length} frames)`, choice: 0, enabled: 1 });
    for (const frame of frames) await run.write(frame);
    attack.end = trace.events.length;
    await run.finishPending();
    await run.followUp();
    await run.close();
    trace.record({ kind: 'end', outcome: 'quiescent' });
    return trace;
  });
  return { trace: trace.events, hash: traceHash(trace.events), target, framing, attack };
}

/** One rogue run's moving parts. @internal */
class RogueRun {
  /** The real SDK endpoint under attack. */
  private readonly endpoint: Endpoint;
  private sdkEnd!: ScheduledTransport;
  private rogueEnd!: ScheduledTransport;
  private seq = 0;
  /** Frames the rogue received, in order. */
  private readonly inbox: JsonValue[] = [];
  /** Client target: the pending call's id as the rogue server received it, held unanswered. */
  private heldId: JsonValue | undefined;
  private readonly settled = new Map<string, { ok: boolean; error?: string }>();
  private readonly pendingAbort = new AbortController();
  private readonly rogue: Side;

  constructor(
    private readonly sdk: SdkAdapter,
    private readonly target: Side,
    private readonly trace: TraceRecorder,
    private readonly options: RogueRunOptions,
  ) {
    this.rogue = otherSide(target);
    this.endpoint = target === 'server' ? sdk.createServer() : sdk.createClient();
    this.endpoint.onerror = (error: Error) => trace.record({ kind: 'onerror', side: target, message: error.message });
    this.endpoint.onclose = () => trace.record({ kind: 'close', side: target, conn: 1 });
    if (target === 'server') {
      this.serve('tools/call', (name) => name === HANG_TOOL);
    } else {
      this.serve('sampling/createMessage', () => true);
      this.serve('elicitation/create', () => false);
      this.serve('roots/list', () => false);
    }
  }

  async connect(framing: RogueFraming): Promise<void> {
    const [clientEnd, serverEnd] = createScheduledPair(1, {
      nextSeq: () => ++this.seq,
      record: (e) => this.trace.record(e),
    });
    this.sdkEnd = this.target === 'server' ? serverEnd : clientEnd;
    this.rogueEnd = this.target === 'server' ? clientEnd : serverEnd;
    this.rogueEnd.onmessage = (message) => this.rogueReceives(message as unknown as JsonValue);
    this.trace.record({ kind: 'connect', conn: 1 });
    let transport: Transport = framing === 'stdio' ? new StdioFraming(this.sdkEnd, (line) => this.sdk.deserializeMessage(line)) : this.sdkEnd;
    if (this.options.wrap) transport = this.options.wrap(transport);

    if (this.target === 'server') {
      await this.endpoint.connect(transport);
      const initId = this.options.initializeId ?? 0;
      await this.rogueSends({
        jsonrpc: '2.0',
        id: initId,
        method: 'initialize',
        params: { protocolVersion: ROGUE_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'mcp-sim-rogue', version: '0.0.0' } },
      });
      await this.pump();
      const answered = this.inbox.some((f) => isJsonObject(f) && sameId(f.id, initId) && 'result' in f);
      this.trace.record({ kind: 'ready', conn: 1, ...(!answered && { error: 'the SDK server did not answer the rogue initialize' }) });
      await this.rogueSends({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await this.pump();
    } else {
      let ready: { error?: string } | undefined;
      void this.endpoint.connect(transport).then(
        () => (ready = {}),
        (error: unknown) => (ready = { error: describeError(error) }),
      );
      await this.pump();
      this.trace.record({ kind: 'ready', conn: 1, ...((ready?.error !== undefined || !ready) && { error: ready?.error ?? 'connect did not settle' }) });
    }
  }

  /** Opens the pending call and writes the setup frames. */
  async prepare(): Promise<void> {
    if (this.options.pendingCall) {
      this.startCall('pending', 'pending', true);
      await this.pump();
      if (this.options.abortPendingCall) {
        this.trace.step++;
        this.trace.record({ kind: 'action', action: 'caller aborts pending', choice: 0, enabled: 1 });
        this.trace.record({ kind: 'abort-signal', signal: 'pending' });
        this.pendingAbort.abort('pending call aborted by its caller');
        await this.pump();
      }
    }
    for (const frame of this.options.setup ?? []) await this.write(frame, 'setup');
  }

  /** The rogue writes one frame; everything then runs to quiescence. */
  async write(frame: JsonValue, what = 'frame'): Promise<void> {
    this.trace.step++;
    this.trace.record({ kind: 'action', action: `rogue ${this.rogue} writes ${what}`, choice: 0, enabled: 1 });
    await this.rogueSends(frame);
    await this.pump();
  }

  /** Client target: the rogue server finally answers the held pending call, unless it settled. */
  async finishPending(): Promise<void> {
    if (this.target !== 'client' || this.heldId === undefined || this.settled.has('pending')) return;
    this.trace.step++;
    this.trace.record({ kind: 'action', action: 'rogue server answers pending', choice: 0, enabled: 1 });
    await this.rogueSends({ jsonrpc: '2.0', id: this.heldId, result: this.sdk.result('tools/call') as JsonValue });
    await this.pump();
  }

  /** The rogue pings the SDK side: a usable endpoint answers in that step (`rpc.survives-bad-input`). */
  async followUp(): Promise<void> {
    this.trace.step++;
    this.trace.record({ kind: 'action', action: 'rogue pings', choice: 0, enabled: 1 });
    await this.rogueSends({ jsonrpc: '2.0', id: FOLLOW_UP_ID, method: 'ping' });
    await this.pump();
  }

  /** The rogue closes its end, as a run ends: the SDK side must settle what it still holds. */
  async close(): Promise<void> {
    this.trace.step++;
    this.trace.record({ kind: 'action', action: `rogue ${this.rogue} closes`, choice: 0, enabled: 1 });
    if (!this.rogueEnd.isClosed) this.trace.record({ kind: 'close', side: this.rogue, conn: 1 });
    await this.rogueEnd.close();
    await this.pump();
  }

  /** Delivers every queued frame, oldest first, one per step, with quiescence after each. */
  private async pump(): Promise<void> {
    for (;;) {
      let queued = [this.sdkEnd, this.rogueEnd].filter((t) => t.incoming.size > 0);
      if (queued.length === 0) {
        // Sends may still be a few microtasks away (e.g. `connect` sends after `start`).
        await quiesce();
        queued = [this.sdkEnd, this.rogueEnd].filter((t) => t.incoming.size > 0);
        if (queued.length === 0) return;
      }
      const to = queued.sort((a, b) => a.incoming.peek()!.seq - b.incoming.peek()!.seq)[0]!;
      this.trace.step++;
      this.trace.record({ kind: 'action', action: describeAction({ kind: 'deliver', to }), choice: 0, enabled: queued.length });
      try {
        to.deliverHead();
      } catch (error) {
        this.trace.record({ kind: 'escape', source: 'action', error: describeError(error) });
      }
      await quiesce();
    }
  }

  private async rogueSends(frame: JsonValue): Promise<void> {
    // The rogue's writes never fail; a closed link drops them, which the trace records.
    await this.rogueEnd.send(frame as unknown as JSONRPCMessage).catch(() => {});
  }

  /** The rogue's scripted half: answer the handshake and the follow-up, hold the pending call. */
  private rogueReceives(frame: JsonValue): void {
    this.inbox.push(frame);
    if (this.target !== 'client' || !isRequestFrame(frame)) return;
    const params = isJsonObject(frame.params) ? frame.params : {};
    if (frame.method === 'initialize') {
      void this.rogueSends({
        jsonrpc: '2.0',
        id: frame.id as JsonValue,
        result: {
          protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : ROGUE_PROTOCOL_VERSION,
          capabilities: { tools: {} },
          serverInfo: { name: 'mcp-sim-rogue', version: '0.0.0' },
        },
      });
    } else if (frame.method === 'tools/call' && params.name === 'pending') {
      this.heldId = frame.id as JsonValue;
    } else if (frame.method === 'tools/call') {
      void this.rogueSends({ jsonrpc: '2.0', id: frame.id as JsonValue, result: this.sdk.result('tools/call') as JsonValue });
    }
  }

  /** Client target: a `tools/call` through the real client, recorded as the World records calls. */
  private startCall(call: string, tool: string, pending: boolean): void {
    const id = this.sdk.probe.nextRequestId(this.endpoint).value;
    const callOptions: JsonValue = pending ? { onprogress: true, signal: 'pending' } : {};
    this.trace.step++;
    this.trace.record({ kind: 'action', action: `caller calls ${call}`, choice: 0, enabled: 1 });
    this.trace.record({ kind: 'call-start', call, from: 'client', conn: 1, method: 'tools/call', id, options: callOptions });
    const sdkOptions: RequestOptions = pending
      ? {
          signal: this.pendingAbort.signal,
          onprogress: (p: { progress: number; total?: number }) =>
            this.trace.record({ kind: 'onprogress', call, progress: p.progress, ...(p.total !== undefined && { total: p.total }) }),
        }
      : {};
    this.sdk.request(this.endpoint, 'tools/call', this.sdk.requestParams('tools/call', tool), sdkOptions).then(
      () => {
        this.settled.set(call, { ok: true });
        this.trace.record({ kind: 'call-settle', call, from: 'client', outcome: 'resolved' });
      },
      (error: unknown) => {
        this.settled.set(call, { ok: false, error: describeError(error) });
        const code = this.sdk.errorCode(error);
        this.trace.record({
          kind: 'call-settle',
          call,
          from: 'client',
          outcome: 'rejected',
          ...(code !== undefined && { code }),
          message: messageOf(error),
        });
      },
    );
  }

  /** Registers the SDK side's handler for `method`: answers at once, or hangs until aborted. */
  private serve(method: RequestMethod, hangs: (name: unknown) => boolean): void {
    const side = this.target;
    const trace = this.trace;
    this.sdk.handle(this.endpoint, method, async (request, { requestId: id, signal }) => {
      trace.record({ kind: 'handler-start', side, conn: 1, id, method });
      signal.addEventListener('abort', () => trace.record({ kind: 'handler-abort', side, conn: 1, id, reason: String(signal.reason) }), {
        once: true,
      });
      if (hangs(request.params?.name)) {
        try {
          await new Promise<never>((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          });
        } catch (error) {
          trace.record({ kind: 'handler-end', side, conn: 1, id, outcome: 'aborted' });
          throw error;
        }
      }
      trace.record({ kind: 'handler-end', side, conn: 1, id, outcome: 'result' });
      return this.sdk.result(method);
    });
  }
}

/** JSON-RPC id equality: same type and value (`1` and `"1"` differ). */
function sameId(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
