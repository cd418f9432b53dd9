import { performance } from 'node:perf_hooks';
import { CASES_AT_ONCE_MAX, CASES_AT_ONCE_START, SATURATED_SHARE } from '../options/defaults.ts';
import type { TraceEvent, TraceEventBody } from '../sim/trace.ts';
import { barrierPingId } from '../util/barrierPing.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import type { Endpoint, OpenHow } from './connection.ts';
import { openConnection, type OpenConnection } from './openConnection.ts';
import type { Plan, PlannedCall } from './plan.ts';
import { runPlan, type ToolPace } from './runPlan.ts';

/** What every report of shared connections, and each finding seen on one, says. */
export const REUSE_NOTE = 'shared connections: state may carry over between cases';

/**
 * Whether a case left a call running: written, and never settled at the client (nobody gave it
 * up and no answer came within its bound).
 */
function leftACallRunning(trace: readonly TraceEvent[]): boolean {
  const settled = new Set(trace.flatMap((e) => (e.kind === 'call-settle' ? [e.call] : [])));
  return trace.some((e) => e.kind === 'call-start' && !settled.has(e.call));
}

/** How long a shared connection waits, sized by the campaign to the server. */
export interface CaseWaits {
  /** `--hang-after`: the least a silent call is waited for, and the bound of a case's quiet. */
  readonly hangAfterMs: number;
  /** The in-flight bound: pings slower than `SATURATED_SHARE` of it mean the connection carries too much. */
  readonly inFlightMs: number;
  /** How long a case's own frames must have been quiet, once its calls are done, before its slice is cut. */
  quietMs(plan: Plan): number;
  /** What the tools have shown they take (slow is not stuck). */
  readonly pace?: ToolPace;
  /** How many calls at once the server has shown it serves: every shared connection of the target reads and tells it. */
  readonly capacity?: Capacity;
}

/**
 * How many calls at once a server serves, as the connections to it learn it: a connection whose
 * pings stop being answered at all (not within twice the in-flight bound) carries more than the
 * server can (a pool of threads all busy, a queue that also holds its writes). It says so
 * (`saturated`, with the calls it had in flight, cases given up whose calls still work included),
 * and no connection takes a case that would put more calls on the server than `callCap`; pings
 * answered in time again let it grow (`healthy`). A ping answered late only narrows its own
 * connection: on a loaded machine every answer is late, and the server still serves.
 */
export interface Capacity {
  readonly callCap: number;
  saturated(callsInFlight: number): void;
  healthy(): void;
}

/** One case run on a shared connection: its own slice of the trace. */
export interface SharedCase {
  /**
   * Its slice: the handshake, then the case's own events and what belongs to no case while it ran,
   * numbered from 0, its `end` last. Cut when asked, up to its quiet window after its calls were
   * done as the campaign sizes it then (waited for when it has not passed yet), or through the
   * close it held: a frame of it read after that is late, and not in it.
   */
  slice(): Promise<{ readonly trace: TraceEvent[]; readonly lateFrames: number }>;
  /** `performance.now()` at the connection's open: the slice's time 0. */
  readonly t0: number;
  /** The connection closed with this case (it left a call running, or was the last when the close was judged): the close is in its slice. */
  readonly heldClose: boolean;
  /** Cases in flight on the connection, this one included, when it started. */
  readonly atOnce: number;
  /** Progress tokens of the case renamed because an earlier case on the connection used them. */
  readonly renamedTokens: number;
}

/** A case on the connection, from its start until its slice is cut. */
interface CaseState {
  readonly no: number;
  readonly plan: Plan;
  /** Index of the connection's first event of the case (counted from the connection's first event, those forgotten included). */
  readonly from: number;
  /** Request ids it wrote (and their barrier pings), as keys. */
  readonly ids: Set<string | number>;
  /** When a frame of its own was last read. */
  lastFrameAt: number;
  /** It waits for the connection's close, which its slice then shows. */
  holds: boolean;
  /** The connection's time when its calls were done and its own frames quiet (its slot freed). */
  doneT?: number;
  outcome?: 'quiescent' | 'real-time-bound';
}

/** Forgotten events are dropped this many at least at a time (`SharedConnection.forget`). */
const FORGET_AT_LEAST = 2_000;

/** An end of one of the handshake's HTTP exchanges (the initialize stream's end, the 202 of initialized, the GET stream's head). */
function isHeadEnd(e: TraceEvent, headExchanges: ReadonlySet<number>): boolean {
  return (e.kind === 'http-response' || e.kind === 'sse-end' || e.kind === 'http-disconnect' || (e.kind === 'sse-event' && e.seq === undefined)) && headExchanges.has(e.exchange);
}

/** The request ids each shared connection of a campaign has to itself (`SharedConnection.over`'s `idBase`, in steps of it). */
export const CONNECTION_ID_SPAN = 1_000_000;

const key = (id: unknown): string => (typeof id === 'number' ? `n${id}` : `s${JSON.stringify(id)}`);
const LATE_ANSWER_MS = 200;
/** How often a connection carrying cases pings the server, to size how many it carries. */
const PROBE_EVERY_MS = 100;
/** The ids of those pings, and the owner their frames get: none of the cases'. */
const PROBE_PREFIX = 'mcp-sim-probe-';
const PROBE = -1;

/**
 * Many cases at once on one connection: a process (stdio), a session (stateful HTTP) or a server
 * (stateless HTTP). Each case writes its own request ids (the connection's counter) and progress
 * tokens (renamed where an earlier case used them), and is judged on its own slice of the trace:
 * the handshake, the events it recorded, the frames that answer its ids or carry its tokens, and
 * what belongs to no case (stderr, a line that is not JSON, a frame for an id nobody sent) while
 * it ran. A case leaves the connection's count once its calls are done and its own frames were
 * quiet for its quiet window; its slice is cut when asked, with the quiet window the campaign
 * knows then (it learns the tools' progress intervals as it runs); a frame of it read after that
 * is counted late, never given to another case.
 * Server→client requests cannot be told apart by case: each is answered by the policy of the
 * oldest case in flight and shown in its slice.
 *
 * The connection pings the server while it carries cases and sizes how many it carries by the
 * answer times: it halves them when a ping takes longer than `SATURATED_SHARE` of the in-flight
 * bound, and doubles them when pings stay well under it and it was full. A case that left a call
 * running retires the connection (no new cases: the stuck call may hold the server), and holds
 * its close: the connection closes once every case still on it holds it, and their slices show
 * the close (stdin EOF and the exit, or the session's DELETE).
 */
export class SharedConnection {
  /** Cases in flight at once it takes now (sized by the answer times). */
  allowance = CASES_AT_ONCE_START;
  /** The most cases it carried at once. */
  maxAtOnce = 0;
  /** Ping round trips it measured, ms. */
  readonly roundTrips: number[] = [];
  private nextId: number;
  private cases = 0;
  private readonly live = new Map<number, CaseState>();
  private readonly idOwner = new Map<string, number>();
  private readonly tokenOwner = new Map<string, number>();
  private readonly serverRequestOwner = new Map<string, number>();
  /** The case each event recorded through a case's recorder belongs to, by event index. */
  private readonly tagged = new Map<number, number>();
  /**
   * Events no slice needs any more are forgotten (`forget`): the index of the recorder's first
   * event kept. Indices (`from`, `tagged`) count from the connection's first event all the same.
   */
  private base = 0;
  /** The end events of the handshake's HTTP exchanges among those forgotten (every slice shows them). */
  private readonly headEnds: TraceEvent[] = [];
  /** Cases whose slice is not cut yet, and where each begins. */
  private readonly uncut = new Map<number, number>();
  private readonly usedTokens = new Set<string>();
  /** Progress tokens of cases no longer on the connection whose progress still comes, and when it last came. */
  private readonly zombies = new Map<string, number>();
  private renamed = 0;
  /** The connection's time when its close began (its events belong to the cases that held it). */
  private closeT: number | undefined;
  private state: 'open' | 'draining' | 'closed' = 'open';
  private judgeCloseWithLast = false;
  private closing: Promise<void> | undefined;
  private closedNow: () => void = () => {};
  private readonly closed = new Promise<void>((resolve) => (this.closedNow = resolve));
  private readonly head: readonly TraceEvent[];
  private readonly headExchanges: ReadonlySet<number>;
  private probe: NodeJS.Timeout | undefined;
  private probeNo = 0;
  private readonly unlisten: () => void;

  private constructor(
    readonly open: OpenConnection,
    private readonly waits: CaseWaits,
    idBase: number,
  ) {
    this.head = [...open.recorder.events];
    // Ids continue after those the handshake and the tools' listing used, from the connection's own range.
    this.nextId = idBase + 1;
    for (const e of this.head) if (e.kind === 'send' && isJsonObject(e.frame) && typeof e.frame.id === 'number') this.nextId = Math.max(this.nextId, e.frame.id + 1);
    this.headExchanges = new Set(this.head.flatMap((e) => (e.kind === 'http-request' ? [e.exchange] : [])));
    this.unlisten = open.inbox.listen((frame) => this.read(frame));
  }

  /** Opens a connection to `endpoint` and does the handshake (a bad target throws `BadTargetError`). */
  static async open(endpoint: Endpoint, waits: CaseWaits, how: OpenHow = {}, idBase = 0): Promise<SharedConnection> {
    return new SharedConnection(await openConnection(endpoint, how), waits, idBase);
  }

  /**
   * A connection already opened and initialized (the one that listed the tools, a warm one).
   * `idBase`: its request ids start above it. The connections of one campaign each take their
   * own range (`CONNECTION_ID_SPAN`): a stateless HTTP server cannot tell its clients apart, so
   * the same id in flight on two connections would be a duplicate id to it, which no case asked for.
   */
  static over(open: OpenConnection, waits: CaseWaits, idBase = 0): SharedConnection {
    return new SharedConnection(open, waits, idBase);
  }

  /** Cases on it now, from their start until their slice is cut. */
  get inFlight(): number {
    return this.live.size;
  }

  /** It takes `plan` now: open, alive, carrying fewer cases than its allowance, and the calls it would add within what the server serves. */
  accepts(plan: Plan): boolean {
    if (this.state !== 'open' || !this.alive || this.live.size >= this.allowance) return false;
    const cap = this.waits.capacity?.callCap ?? Number.POSITIVE_INFINITY;
    return this.live.size === 0 || this.callsInFlight() + plan.calls.length <= cap;
  }

  /**
   * The calls the server may be working on for this connection: every call of the cases on it,
   * and the calls of cases done whose progress was read within `--hang-after` (given up, their
   * work goes on: a cancel that does not reach the work).
   */
  callsInFlight(): number {
    const now = performance.now();
    let n = 0;
    for (const s of this.live.values()) n += s.plan.calls.length;
    for (const [token, at] of this.zombies) {
      if (now - at < this.waits.hangAfterMs) n++;
      else this.zombies.delete(token);
    }
    return n;
  }

  /** Neither closed nor ended: it may take cases once it has room. */
  get usable(): boolean {
    return this.state === 'open' && this.alive;
  }

  private get alive(): boolean {
    return !this.open.conn.exited && this.open.inbox.endedBecause === undefined;
  }

  /** Runs `plan` on the connection, at once with the cases already on it; resolves once its calls are done and its own frames quiet (or, holding the close, once the connection closed). */
  async run(plan: Plan): Promise<SharedCase> {
    const no = ++this.cases;
    const { recorder, inbox, conn, t0 } = this.open;
    const state: CaseState = { no, plan, from: this.base + recorder.events.length, ids: new Set(), lastFrameAt: performance.now(), holds: false };
    this.live.set(no, state);
    this.uncut.set(no, state.from);
    const atOnce = this.live.size;
    this.maxAtOnce = Math.max(this.maxAtOnce, atOnce);
    this.startProbing();
    const { plan: own, renamed } = this.ownTokens(plan, no);
    const tag = {
      record: (body: TraceEventBody) => {
        recorder.record(body);
        this.tagged.set(this.base + recorder.events.length - 1, no);
      },
    };
    const nextId = () => {
      const id = this.nextId++;
      state.ids.add(id);
      state.ids.add(barrierPingId(id));
      this.idOwner.set(key(id), no);
      this.idOwner.set(key(barrierPingId(id)), no);
      return id;
    };
    const run = await runPlan(undefined, own, { hangAfterMs: this.waits.hangAfterMs, ...(this.waits.pace && { pace: this.waits.pace }), reuse: { conn, inbox, recorder: tag, t0, concurrent: { nextId } } });
    if (run.outcome === 'quiescent') await this.quiet(state, this.waits.quietMs(plan));
    const own_ = this.ownEvents(state);
    if (leftACallRunning(own_)) {
      // A call left running may hold the server: no new case here, and the close is shown with it.
      state.holds = true;
      this.state = this.state === 'closed' ? 'closed' : 'draining';
    } else if (this.state === 'draining' && this.judgeCloseWithLast && [...this.live.values()].every((s) => s === state || s.holds)) {
      state.holds = true;
    }
    if (state.holds) {
      this.closeWhenHeld();
      await this.closed;
    }
    state.doneT = this.now();
    state.outcome = run.outcome;
    this.live.delete(no);
    this.closeWhenHeld();
    return {
      slice: async () => {
        const cut = await this.slice(state);
        this.uncut.delete(no);
        this.forget();
        return cut;
      },
      t0,
      heldClose: state.holds,
      atOnce,
      renamedTokens: renamed,
    };
  }

  /**
   * No more cases: the connection closes once every case on it is done or holds the close. With
   * `judgeClose`, the last case to end holds it (its slice shows the close: a server that does
   * not exit on stdin EOF, or keeps a deleted session, is judged once per connection).
   */
  drain(judgeClose: boolean): void {
    if (this.state === 'open') this.state = 'draining';
    this.judgeCloseWithLast = judgeClose;
    this.closeWhenHeld();
  }

  /** Closes it now (stdin EOF and the grace periods, or DELETE): what is still on it sees the close. */
  close(): Promise<void> {
    this.state = 'closed';
    this.closeT ??= this.now();
    this.closing ??= (async () => {
      if (this.probe) clearInterval(this.probe);
      await this.open.conn.close().catch(() => undefined);
      this.unlisten();
      this.closedNow();
    })();
    return this.closing;
  }

  /** The connection closes once it drains and every case left on it holds the close. */
  private closeWhenHeld(): void {
    if (this.state === 'open') return;
    if ([...this.live.values()].every((s) => s.holds)) void this.close();
  }

  /**
   * Each progress token of `plan` that an earlier case on the connection used gets a new value
   * of its type (a number above any the generator draws, the string with `~n`): a late progress
   * of that case must never read as this one's.
   */
  private ownTokens(plan: Plan, no: number): { plan: Plan; renamed: number } {
    let renamed = 0;
    const calls = plan.calls.map((c): PlannedCall => {
      if (c.progressToken === undefined) return c;
      let token: number | string = c.progressToken;
      while (this.usedTokens.has(key(token))) {
        this.renamed++;
        token = typeof c.progressToken === 'number' ? 1_000_000 + this.renamed : `${c.progressToken}~${this.renamed}`;
      }
      if (token !== c.progressToken) renamed++;
      this.usedTokens.add(key(token));
      this.tokenOwner.set(key(token), no);
      return { ...c, progressToken: token };
    });
    return { plan: renamed === 0 ? plan : { ...plan, calls }, renamed };
  }

  /**
   * Whose a frame is (`from`: who wrote it): the case whose id it carries or answers, whose token
   * its progress carries, whose cancel it is; the case a server request (and the client's answer
   * to it) was given to; undefined: no case's.
   */
  private ownerOf(frame: JsonValue, from: 'client' | 'server'): number | undefined {
    if (!isJsonObject(frame)) return undefined;
    // The connection's own pings (and their answers) are no case's, and in no slice.
    if (typeof frame.id === 'string' && frame.id.startsWith(PROBE_PREFIX)) return PROBE;
    const request = typeof frame.method === 'string' && 'id' in frame;
    const answer = !('method' in frame) && 'id' in frame && ('result' in frame || 'error' in frame);
    if (request || answer) return (request === (from === 'client') ? this.idOwner : this.serverRequestOwner).get(key(frame.id));
    if (frame.method === 'notifications/progress' && isJsonObject(frame.params)) return this.tokenOwner.get(key(frame.params.progressToken));
    if (frame.method === 'notifications/cancelled' && isJsonObject(frame.params)) return (from === 'client' ? this.idOwner : this.serverRequestOwner).get(key(frame.params.requestId));
    return undefined;
  }

  /** A frame read: its case's quiet starts again (or it is late); a server request is answered for the oldest case in flight. */
  private read(frame: JsonValue): void {
    if (isJsonObject(frame) && typeof frame.method === 'string' && 'id' in frame) this.answerServerRequest(frame.id as JsonValue, frame.method);
    const owner = this.ownerOf(frame, 'server');
    if (owner === undefined) return;
    const state = this.live.get(owner);
    if (state) state.lastFrameAt = performance.now();
    else if (owner !== PROBE && isJsonObject(frame) && frame.method === 'notifications/progress' && isJsonObject(frame.params)) this.zombies.set(key(frame.params.progressToken), performance.now());
  }

  private answerServerRequest(id: JsonValue, method: string): void {
    const oldest = [...this.live.values()].sort((a, b) => a.no - b.no)[0];
    if (oldest) this.serverRequestOwner.set(key(id), oldest.no);
    const policy = oldest?.plan.serverRequests ?? 'answer';
    const reply = () =>
      void this.open.conn.send(
        policy === 'error' && method !== 'ping' ? { jsonrpc: '2.0', id, error: { code: -32603, message: 'declined by the mcp-sim client' } } : { jsonrpc: '2.0', id, result: answerTo(method) },
      );
    if (policy === 'late') setTimeout(reply, LATE_ANSWER_MS);
    else reply();
  }

  /** Waits until the case's own frames were quiet for `ms` and none of its POSTs is open, or the bound. */
  private async quiet(state: CaseState, ms: number): Promise<void> {
    const { conn, inbox } = this.open;
    const until = performance.now() + Math.max(ms, this.waits.hangAfterMs);
    state.lastFrameAt = Math.max(state.lastFrameAt, performance.now());
    while (performance.now() < until && inbox.endedBecause === undefined) {
      if (performance.now() - state.lastFrameAt >= ms && conn.openExchanges(state.ids) === 0) return;
      await new Promise((r) => setTimeout(r, Math.min(10, ms)));
    }
  }

  /** The events the case recorded itself (its actions and calls). */
  private ownEvents(state: CaseState): TraceEvent[] {
    const events = this.open.recorder.events;
    const out: TraceEvent[] = [];
    for (let i = state.from; i < this.base + events.length; i++) if (this.tagged.get(i) === state.no) out.push(events[i - this.base]!);
    return out;
  }

  /**
   * Forgets the events before the first that a case still to be cut may need (a shared
   * connection lives the whole campaign: what it records must not grow with it, above all when
   * a server floods it), keeping the ends of the handshake's HTTP exchanges, which every slice
   * shows. Done in steps of `FORGET_AT_LEAST` events, so the copy is paid rarely.
   */
  private forget(): void {
    const events = this.open.recorder.events;
    const needed = Math.min(this.base + events.length, ...this.uncut.values());
    const drop = needed - Math.max(this.base, this.head.length);
    if (drop < FORGET_AT_LEAST) return;
    const from = Math.max(this.base, this.head.length) - this.base;
    for (const e of events.slice(from, from + drop)) if (isHeadEnd(e, this.headExchanges)) this.headEnds.push(e);
    events.splice(0, from + drop);
    this.base = needed;
    for (const i of this.tagged.keys()) {
      if (i >= needed) break;
      this.tagged.delete(i);
    }
  }

  /**
   * The case's slice: the handshake, then from its start every event that is its own (recorded by
   * it, a frame of its ids or tokens, an HTTP exchange carrying one) or no case's (stderr, the
   * process's exit, a frame of no case, the close), numbered from 0, and its `end`.
   */
  private async slice(state: CaseState): Promise<{ trace: TraceEvent[]; lateFrames: number }> {
    // Through the close it held; else its quiet window as sized now, never into the close.
    const until = state.holds ? Number.POSITIVE_INFINITY : Math.min(state.doneT! + this.waits.quietMs(state.plan), this.closeT ?? Number.POSITIVE_INFINITY);
    const wait = until - this.now();
    if (wait > 0 && Number.isFinite(wait) && this.alive) await new Promise((r) => setTimeout(r, wait));
    const events = this.open.recorder.events;
    const base = this.base;
    const seqOwner = new Map<string, number | undefined>();
    const exchangeOwner = new Map<number, number | undefined>();
    const whose = (e: TraceEvent, i: number): number | undefined | 'none' => {
      const tag = this.tagged.get(i);
      if (tag !== undefined) return tag;
      switch (e.kind) {
        case 'send':
        case 'send-failed':
        case 'deliver': {
          const owner = this.ownerOf(e.frame, e.kind === 'deliver' ? 'server' : 'client');
          if (e.kind !== 'send-failed') seqOwner.set(`${e.kind === 'send' ? 'c' : 's'}${e.seq}`, owner);
          return owner ?? 'none';
        }
        case 'http-request': {
          const owner = e.seqs.length > 0 ? seqOwner.get(`c${e.seqs[0]}`) : undefined;
          exchangeOwner.set(e.exchange, owner);
          return owner ?? 'none';
        }
        case 'sse-event':
          if (e.seq !== undefined) {
            // The event that carries a frame is the frame's: the next deliver of that seq.
            for (let j = i + 1; j < base + events.length; j++) {
              const d = events[j - base]!;
              if (d.kind === 'deliver' && d.to === 'client' && d.seq === e.seq) return this.ownerOf(d.frame, 'server') ?? 'none';
            }
            return 'none';
          }
          return this.headExchanges.has(e.exchange) ? 'none' : (exchangeOwner.get(e.exchange) ?? 'none');
        case 'http-response':
        case 'sse-end':
        case 'http-disconnect':
          return this.headExchanges.has(e.exchange) ? 'none' : (exchangeOwner.get(e.exchange) ?? 'none');
        case 'frames-counted':
          // A flood of one call's progress is that call's case's; any other stream is no case's.
          return e.token === undefined ? 'none' : (this.tokenOwner.get(key(e.token)) ?? 'none');
        default:
          return 'none';
      }
    };
    const kept: TraceEvent[] = [...this.head, ...this.headEnds];
    // The handshake's HTTP exchanges end after it (the initialize stream's end, the 202 of initialized, the GET stream's head): every slice has those.
    for (let i = Math.max(this.head.length, base); i < Math.min(state.from, base + events.length); i++) {
      const e = events[i - base]!;
      if (isHeadEnd(e, this.headExchanges)) kept.push(e);
    }
    let late = 0;
    for (let i = Math.max(this.head.length, state.from); i < base + events.length; i++) {
      const e = events[i - base]!;
      const owner = whose(e, i);
      if (owner !== state.no && owner !== 'none') continue;
      if (e.t <= until) kept.push(e);
      else if (owner === state.no && e.kind === 'deliver') late++;
    }
    const end = { kind: 'end', outcome: state.outcome ?? 'quiescent', i: 0, step: 0, t: Math.min(until, this.now()) } as TraceEvent;
    return { trace: [...kept, end].map((e, i) => ({ ...e, i })), lateFrames: late };
  }

  /** The connection's time: real ms since it opened, as its trace stamps them. */
  private now(): number {
    return Math.round((performance.now() - this.open.t0) * 10) / 10;
  }

  /** While it carries cases, a ping every `PROBE_EVERY_MS`: its round trip sizes the allowance. */
  private startProbing(): void {
    if (this.probe) return;
    this.probe = setInterval(() => {
      if (this.live.size === 0 || this.state === 'closed' || !this.alive) return;
      const calls = this.callsInFlight();
      void this.ping().then((pong) => {
        if (pong === undefined) return;
        if (pong.ms > SATURATED_SHARE * this.waits.inFlightMs) {
          this.allowance = Math.max(1, Math.floor(this.allowance / 2));
          // Not answered at all: the server stopped serving (a pool all busy), not merely slow on a busy machine.
          if (!pong.answered) this.waits.capacity?.saturated(calls);
          return;
        }
        this.waits.capacity?.healthy();
        const ms = pong.ms;
        if (ms < (SATURATED_SHARE / 4) * this.waits.inFlightMs && this.live.size >= this.allowance) this.allowance = Math.min(CASES_AT_ONCE_MAX, this.allowance * 2);
      });
    }, PROBE_EVERY_MS);
    this.probe.unref();
  }

  /** One ping's round trip, ms, and whether it was answered within twice the in-flight bound (undefined: the connection ended). */
  async ping(): Promise<{ readonly ms: number; readonly answered: boolean } | undefined> {
    const id = `${PROBE_PREFIX}${++this.probeNo}`;
    const sent = performance.now();
    void this.open.conn.send({ jsonrpc: '2.0', id, method: 'ping' });
    const pong = await this.open.inbox.waitFor((f) => isJsonObject(f) && f.id === id && ('result' in f || 'error' in f), 2 * this.waits.inFlightMs);
    const ms = performance.now() - sent;
    this.roundTrips.push(Math.round(ms * 10) / 10);
    return pong === undefined && !this.alive ? undefined : { ms, answered: pong !== undefined };
  }
}

/** The answer mcp-sim's client gives a server→client request it accepts. */
export function answerTo(method: string): JsonValue {
  if (method === 'roots/list') return { roots: [] };
  if (method === 'sampling/createMessage') return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'mcp-sim' };
  if (method === 'elicitation/create') return { action: 'decline' };
  return {};
}
