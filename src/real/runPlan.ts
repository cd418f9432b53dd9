import { performance } from 'node:perf_hooks';
import { silenceBoundMs } from '../util/silenceBound.ts';
import { DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_START_MS } from '../options/defaults.ts';
import { TraceRecorder, type TraceEvent, type TraceEventBody } from '../sim/trace.ts';
import { handshake, Inbox, type ServerHello, type Endpoint, type TargetConnection } from './index.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import { barrierPingId } from '../util/barrierPing.ts';
import type { Anchor, Plan, PlannedCall } from './plan.ts';

/**
 * What the tools of a server have shown they take, learned as runs go (the real clock's campaign
 * keeps one per target): slow is not stuck. A run reads `toolSilenceMs` whenever it decides
 * whether a silent call is stuck (`silenceBoundMs`), and tells it about each call it writes
 * (`started`): each progress read for it, its answer, or that it is over without one (given up,
 * left as stuck, the run's end).
 */
export interface ToolPace {
  readonly toolSilenceMs: Readonly<Record<string, number>>;
  started(tool: string): CallPace;
}

/** One call as a `ToolPace` follows it. */
export interface CallPace {
  progress(): void;
  answered(): void;
  over(): void;
}

/** A pace that only states bounds (a replay's, a test's): it learns nothing. */
export const fixedPace = (toolSilenceMs: Readonly<Record<string, number>>): ToolPace => ({ toolSilenceMs, started: () => ({ progress: () => {}, answered: () => {}, over: () => {} }) });

/** A connection someone else opened, that a run uses (and closes only when `close` says so). */
export interface OpenUse {
  readonly conn: TargetConnection;
  readonly inbox: Inbox;
  /** Where the run records: the connection's recorder, or one that marks the run's own events. */
  readonly recorder: Pick<TraceRecorder, 'record'>;
  /** `performance.now()` at the connection's open: the trace's time 0. */
  readonly t0: number;
  /** The run's first request id (one run after another on the connection). @default 1 */
  readonly firstId?: number;
  /**
   * Many runs at once on the connection (a shared connection): ids come from the connection's
   * counter, the connection answers server→client requests (which run one is for cannot be told),
   * no `tools/list` first, and the run neither watches a tail nor records its `end` (the connection
   * cuts each run's slice of the trace and waits for its quiet).
   */
  readonly concurrent?: { readonly nextId: () => number };
  /** Close the connection at the end, as a run on its own connection does (a warm connection, used once). @default false */
  readonly close?: boolean;
  /** The handshake's answer and its time, when the connection was opened for this run (a warm one). */
  readonly hello?: ServerHello;
  readonly startupMs?: number;
}

export interface RunPlanOptions {
  /**
   * How long a call nobody gave up may stay silent (no progress for it, no answer) before it is
   * left and judged, at least (`silenceBoundMs`: twice what its tool has shown it takes, when
   * `pace` says); each sign of life (its progress) starts the wait again, so a slow call that
   * says it is working is waited for. A POST that never ends is left after the same bound.
   * @default DEFAULT_HANG_AFTER_MS
   */
  readonly hangAfterMs?: number;
  /** What the tools have shown they take (the campaign's, live) and where this run tells what its calls show. */
  readonly pace?: ToolPace;
  /** The longest a run may last, whatever the server says: a server that never stops sending progress does not hold the campaign. @default RUN_MS_MAX */
  readonly runMsMax?: number;
  /** How long the run watches after the last call settled or was given up (late progress, late results). @default 2 × DEFAULT_IN_FLIGHT_MS */
  readonly tailMs?: number;
  /** Bound of the handshake. @default DEFAULT_PROCESS_START_MS */
  readonly startMs?: number;
  /** An open connection to run on (not opened here; closed only when it says so). */
  readonly reuse?: OpenUse;
}

/** One real-time run: its trace (same format as simulated runs, `t` in real ms from the start) and timings. */
export interface RealtimeRun {
  readonly trace: TraceEvent[];
  readonly hello: ServerHello | undefined;
  /** Real ms from the start to the end of the handshake (process start-up included). */
  readonly startupMs: number;
  readonly totalMs: number;
  /** The tools the server listed (`tools/list` of this run). */
  readonly tools: readonly { readonly name: string; readonly inputSchema: JsonValue }[];
  /** How the run ended: every call settled or given up (`quiescent`), or a bound left some. */
  readonly outcome: 'quiescent' | 'real-time-bound';
}

const LATE_ANSWER_MS = 200;

/** The whole run's quiet bound, in units of `hangAfterMs`: calls chained on anchors each get the bound of their own. */
const RUN_BOUND_FACTOR = 4;

/** The longest one run lasts, however long its calls keep saying they are working. */
export const RUN_MS_MAX = 600_000;

/** The answer mcp-sim's client gives a server→client request it accepts. */
function answerTo(method: string): JsonValue {
  if (method === 'roots/list') return { roots: [] };
  if (method === 'sampling/createMessage') return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'mcp-sim' };
  if (method === 'elicitation/create') return { action: 'decline' };
  return {};
}

/**
 * Runs `plan` against `target` in real time: open (start the process or a session), handshake,
 * `tools/list`, then every planned call at its anchor, cancels, drops and timeouts at theirs,
 * server→client requests answered by the plan's policy; watches `tailMs` after the last call is
 * done (or until `hangAfterMs` for calls nobody gave up), and closes (stdin EOF then SIGTERM after
 * the grace period, or DELETE), at once where the plan closes earlier (`plan.close`). Every frame goes into the trace with its real time; the run
 * records what it did as `action` events and each call as `call-start` / `call-settle`.
 */
export async function runPlan(target: Endpoint | undefined, plan: Plan, options: RunPlanOptions = {}): Promise<RealtimeRun> {
  const hangAfterMs = options.hangAfterMs ?? DEFAULT_HANG_AFTER_MS;
  const concurrent = options.reuse?.concurrent;
  const tailMs = concurrent ? 0 : (options.tailMs ?? 2 * DEFAULT_IN_FLIGHT_MS);
  const closes = options.reuse === undefined || options.reuse.close === true;
  const t0 = options.reuse?.t0 ?? performance.now();
  const now = () => Math.round((performance.now() - t0) * 10) / 10;
  const own = options.reuse ? undefined : new TraceRecorder(now);
  const recorder: Pick<TraceRecorder, 'record'> = options.reuse?.recorder ?? own!;
  const inbox = options.reuse?.inbox ?? new Inbox();
  /** Slow is not stuck: how long a call of `tool` may be silent, with what the tools have shown so far. */
  const silenceOf = (tool: string) => silenceBoundMs({ hangAfterMs, ...(options.pace && { toolSilenceMs: options.pace.toolSilenceMs }) }, tool);
  /** Timers of the plan's actions (anchors, timeouts): while one is set, the run is not idle. */
  const timers = new Set<NodeJS.Timeout>();
  /** The `--hang-after` bound of each written call. */
  const hangTimers = new Set<NodeJS.Timeout>();
  let conn: TargetConnection | undefined = options.reuse?.conn;
  let hello: ServerHello | undefined = options.reuse?.hello;
  let startupMs = options.reuse?.startupMs ?? 0;
  let outcome: 'quiescent' | 'real-time-bound' = 'quiescent';
  let liveCalls: { pace?: CallPace }[] = [];
  let tools: RealtimeRun['tools'] = [];
  let unlisten: (() => void) | undefined;
  let unflood: (() => void) | undefined;
  /** The run is closing: nothing more is written (a barrier ping waiting on its cancel's POST is left). */
  let over = false;
  try {
    if (!conn) {
      if (!target) throw new Error('runPlan: neither an endpoint to open nor an open connection to reuse');
      conn = await target.open(own!, inbox);
      hello = await handshake(conn, inbox, options.startMs ?? DEFAULT_PROCESS_START_MS);
      startupMs = now();
    } else if (options.reuse?.startupMs === undefined) startupMs = now();
    const c = conn;
    let counter = options.reuse?.firstId ?? 1;
    const nextId = concurrent ? concurrent.nextId : () => counter++;
    /** A call showed it is alive (its progress, an answer): the run's quiet bound starts again. */
    let lifeSign: () => void = () => {};
    if (!concurrent && (options.reuse === undefined || options.reuse.firstId !== undefined)) {
      const listId = nextId();
      c.send({ jsonrpc: '2.0', id: listId, method: 'tools/list' });
      const list = await inbox.waitFor((f) => isJsonObject(f) && f.id === listId && ('result' in f || 'error' in f), hangAfterMs);
      const listed = isJsonObject(list) && isJsonObject(list.result) && Array.isArray(list.result.tools) ? list.result.tools : [];
      tools = listed.filter(isJsonObject).map((t) => { const o = t as Record<string, JsonValue>; return { name: String(o.name), inputSchema: o.inputSchema ?? {} }; });
    }

    /** Per call: its id, when written, progress seen, whether it settled or was given up. */
    interface Live {
      readonly call: PlannedCall;
      id?: number | string;
      writtenAt?: number;
      progress: number;
      done: 'answered' | 'given-up' | 'hung' | undefined;
      timeoutTimer?: NodeJS.Timeout;
      /** Its silence bound (`silenceOf`) since its last sign of life. */
      hangTimer?: NodeJS.Timeout;
      /** When it was written or last showed life (a progress read for it). */
      lastSign?: number;
      /** What the campaign's pace follows of it. */
      pace?: CallPace;
    }
    const live = new Map<string, Live>(plan.calls.map((call) => [call.label, { call, progress: 0, done: undefined }]));
    liveCalls = [...live.values()];
    const waiting: { anchor: Anchor; run: () => void }[] = [];
    const later = (ms: number, run: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    };
    const fire = (kind: 'written' | 'progress', label: string, n: number) => {
      for (const w of [...waiting]) {
        const a = w.anchor;
        if (a.kind === kind && a.call === label && (a.kind === 'written' || a.n === n)) {
          waiting.splice(waiting.indexOf(w), 1);
          later(a.ms, w.run);
        }
      }
    };
    const when = (anchor: Anchor, run: () => void) => {
      if (anchor.kind === 'start') later(anchor.ms, run);
      else waiting.push({ anchor, run });
    };
    let settleAll: () => void = () => {};
    const allDone = new Promise<void>((resolve) => (settleAll = resolve));
    const checkDone = () => {
      if ([...live.values()].every((l) => l.done !== undefined)) settleAll();
    };
    let lastSettledAt = 0;
    const giveUp = (l: Live, reason: string, how: 'notify' | 'drop' | 'both') => {
      if (l.done !== undefined || l.id === undefined) return;
      l.done = 'given-up';
      lastSettledAt = now();
      if (l.timeoutTimer) {
        clearTimeout(l.timeoutTimer);
        timers.delete(l.timeoutTimer);
      }
      recorder.record({ kind: 'action', action: `${reason === 'timeout' ? 'timeout' : reason === 'flood' ? 'give up (progress flood)' : 'cancel'} ${l.call.label}${how === 'notify' ? '' : how === 'drop' ? ' (drop its POST stream)' : ' (and drop its POST stream)'}`, choice: 0, enabled: 0 });
      if (how !== 'drop') {
        const id = l.id;
        // The cancel's barrier (observedTrace places the cancel's receipt before its answer): a ping the server gets after it; progress read before its answer was on its way already.
        void c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }).then(() => (over ? undefined : c.send({ jsonrpc: '2.0', id: barrierPingId(id), method: 'ping' })));
      }
      if (how !== 'notify') c.drop(l.id);
      recorder.record({ kind: 'call-settle', call: l.call.label, from: 'client', outcome: 'rejected', message: reason === 'timeout' ? 'timed out (client)' : 'cancelled (client)', givenUp: reason === 'timeout' ? 'timeout' : 'cancel' });
      checkDone();
    };
    const armTimeout = (l: Live) => {
      const t = l.call.timeout;
      if (!t || l.done !== undefined) return;
      if (l.timeoutTimer) clearTimeout(l.timeoutTimer);
      const timer = setTimeout(() => {
        timers.delete(timer);
        giveUp(l, 'timeout', 'notify');
      }, t.ms);
      l.timeoutTimer = timer;
      timers.add(timer);
    };
    /**
     * A call nobody gives up is waited for while it shows signs of life: left to the oracle
     * (liveness.call-settles) once it was silent for its tool's bound (`silenceOf`: what the tool
     * has shown it takes, learned while the campaign runs, never under `hangAfterMs`), since it was
     * written or since its last progress. The bound is read again when it runs out: a call of a
     * tool that another call just showed to be slow is waited for longer.
     */
    const armHang = (l: Live) => {
      if (l.hangTimer) {
        clearTimeout(l.hangTimer);
        hangTimers.delete(l.hangTimer);
      }
      l.lastSign = performance.now();
      const wait = (ms: number) => {
        const hang = setTimeout(() => {
          hangTimers.delete(hang);
          if (l.done !== undefined) return;
          const left = l.lastSign! + silenceOf(l.call.tool) - performance.now();
          if (left > 1) return wait(left);
          l.done = 'hung';
          outcome = 'real-time-bound';
          checkDone();
        }, ms);
        l.hangTimer = hang;
        hangTimers.add(hang);
      };
      wait(silenceOf(l.call.tool));
    };
    const byId = (id: unknown) => [...live.values()].filter((l) => l.id !== undefined && l.id === id && l.done === undefined);
    const byToken = (token: unknown) => [...live.values()].find((l) => l.call.progressToken !== undefined && l.call.progressToken === token && l.writtenAt !== undefined);
    // A call whose progress floods (the connection stopped recording it) is given up at once:
    // it cannot hold the run. Dropped, not cancelled (an HTTP stream is closed, a stdio call left
    // unanswered): the flood is the finding, and a server that ignores a cancel would only add
    // findings of its cancel to shrink, each run of them paying the whole flood again.
    unflood = inbox.listenFloods((token) => {
      const l = byToken(token);
      if (l) giveUp(l, 'flood', 'drop');
    });
    unlisten = inbox.listen((frame) => {
      if (!isJsonObject(frame)) return;
      if (typeof frame.method === 'string' && 'id' in frame) {
        // On a shared connection the connection answers it: which run a server request is for cannot be told.
        if (concurrent) return;
        const id = frame.id as JsonValue;
        const method = frame.method;
        const reply = () =>
          c.send(
            plan.serverRequests === 'error' && method !== 'ping'
              ? { jsonrpc: '2.0', id, error: { code: -32603, message: 'declined by the mcp-sim client' } }
              : { jsonrpc: '2.0', id, result: answerTo(method) },
          );
        if (plan.serverRequests === 'late') later(LATE_ANSWER_MS, reply);
        else reply();
        return;
      }
      if (frame.method === 'notifications/progress' && isJsonObject(frame.params)) {
        const l = byToken(frame.params.progressToken);
        if (!l) return;
        l.progress++;
        lifeSign();
        if (l.done === undefined) {
          l.pace?.progress();
          armHang(l);
          recorder.record({ kind: 'onprogress', call: l.call.label, progress: Number(frame.params.progress), ...(typeof frame.params.total === 'number' && { total: frame.params.total }) });
          if (l.call.timeout?.resetOnProgress) armTimeout(l);
        }
        fire('progress', l.call.label, l.progress);
        return;
      }
      if ('result' in frame || 'error' in frame) {
        lifeSign();
        for (const l of byId(frame.id)) {
          l.done = 'answered';
          l.pace?.answered();
          lastSettledAt = now();
          if (l.timeoutTimer) {
            clearTimeout(l.timeoutTimer);
            timers.delete(l.timeoutTimer);
          }
          const error = isJsonObject(frame.error) ? frame.error : undefined;
          recorder.record({
            kind: 'call-settle',
            call: l.call.label,
            from: 'client',
            outcome: error ? 'rejected' : 'resolved',
            ...(error && typeof error.code === 'number' && { code: error.code }),
            ...(error && typeof error.message === 'string' && { message: error.message }),
          });
        }
        checkDone();
      }
    });
    for (const l of live.values()) {
      const call = l.call;
      when(call.at, () => {
        const twin = call.sameIdAs ? live.get(call.sameIdAs) : undefined;
        l.id = twin?.id !== undefined && twin.done === undefined ? twin.id : nextId();
        l.writtenAt = now();
        l.pace = options.pace?.started(call.tool);
        const params: Record<string, JsonValue> = { name: call.tool, arguments: call.arguments as JsonValue };
        if (call.progressToken !== undefined) params._meta = { progressToken: call.progressToken };
        recorder.record({ kind: 'action', action: `call ${call.label} ${call.tool}`, choice: 0, enabled: 0 });
        recorder.record({ kind: 'call-start', call: call.label, from: 'client', conn: 0, method: 'tools/call', id: l.id, options: call.timeout ? { timeout: call.timeout.ms, resetTimeoutOnProgress: call.timeout.resetOnProgress } : {} });
        c.send({ jsonrpc: '2.0', id: l.id, method: 'tools/call', params });
        armTimeout(l);
        armHang(l);
        fire('written', call.label, 0);
      });
      if (call.cancel) when(call.cancel, () => giveUp(l, 'mcp-sim cancelled the call', call.cancelHow ?? 'notify'));
    }
    // The client's close: every call not settled is given up, and the run goes to its close at once.
    let closedAt: number | undefined;
    if (plan.close) {
      when(plan.close, () => {
        if ([...live.values()].every((l) => l.done !== undefined)) return;
        closedAt = now();
        recorder.record({ kind: 'action', action: 'close the connection', choice: 0, enabled: 0 });
        for (const l of live.values()) {
          if (l.done !== undefined) continue;
          l.done = 'given-up';
          if (l.writtenAt !== undefined) recorder.record({ kind: 'call-settle', call: l.call.label, from: 'client', outcome: 'rejected', message: 'connection closed (client)', givenUp: 'close' });
        }
        lastSettledAt = now();
        settleAll();
      });
    }
    // Calls whose anchor never comes (a progress that never arrives) are left unsent: done.
    const unsent = () => {
      for (const l of live.values()) if (l.writtenAt === undefined && l.done === undefined) l.done = 'given-up';
      checkDone();
    };
    const runMsMax = options.runMsMax ?? RUN_MS_MAX;
    // The run's bound: RUN_BOUND_FACTOR × the longest silence bound of its calls, since the last sign of life of any call, and runMsMax in all.
    let reachBound: (b: 'bound') => void = () => {};
    const bound = new Promise<'bound'>((resolve) => (reachBound = resolve));
    const runQuietMs = () => RUN_BOUND_FACTOR * Math.max(hangAfterMs, ...plan.calls.map((call) => silenceOf(call.tool)));
    let quietTimer: NodeJS.Timeout | undefined;
    let lastLife = performance.now();
    const quiet = (ms: number) => {
      quietTimer = setTimeout(() => {
        hangTimers.delete(quietTimer!);
        const left = lastLife + runQuietMs() - performance.now();
        if (left > 1) quiet(left);
        else reachBound('bound');
      }, ms);
      hangTimers.add(quietTimer);
    };
    lifeSign = () => {
      lastLife = performance.now();
      if (quietTimer) {
        clearTimeout(quietTimer);
        hangTimers.delete(quietTimer);
      }
      quiet(runQuietMs());
    };
    lifeSign();
    hangTimers.add(setTimeout(() => reachBound('bound'), runMsMax));
    // Poll for anchors that can no longer come: every written call settled and nothing fires.
    const idle = setInterval(() => {
      const pendingWritten = [...live.values()].some((l) => l.writtenAt !== undefined && l.done === undefined);
      if (!pendingWritten && timers.size === 0) unsent();
    }, 20);
    const first = await Promise.race([allDone.then(() => 'done' as const), bound, inbox.ended.then(() => 'ended' as const)]);
    clearInterval(idle);
    if (first === 'bound') outcome = 'real-time-bound';
    if (first !== 'ended' && closedAt === undefined && !concurrent) {
      // Watch for late frames; an open POST of a given-up or answered call gets until the bound.
      const until = performance.now() + tailMs;
      while (performance.now() < until || (c.openExchanges() > 0 && now() < lastSettledAt + hangAfterMs + 20)) {
        await new Promise((r) => setTimeout(r, 10));
        if (inbox.endedBecause) break;
      }
    }
    for (const t of [...timers, ...hangTimers]) clearTimeout(t);
    timers.clear();
    over = true;
    if (closes) await c.close();
    if (!concurrent) recorder.record({ kind: 'end', outcome });
  } finally {
    unlisten?.();
    unflood?.();
    for (const l of liveCalls) l.pace?.over();
    for (const t of [...timers, ...hangTimers]) clearTimeout(t);
    if (closes && conn && !conn.exited) await conn.close().catch(() => undefined);
  }
  return { trace: own?.events ?? [], hello, startupMs, totalMs: now(), tools, outcome };
}
