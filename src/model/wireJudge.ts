import type { TraceEvent } from '../sim/trace.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import { finding, type Finding } from './finding.ts';
import { idKey, show } from './ids.ts';

/**
 * The oracle of black-box, real-time runs: every rule that can be judged from the frames a
 * client writes and reads (and, for a process, its stderr and exit). It never sees the server's
 * handlers, so each rule is stated in what crosses the wire; where timing decides, the bound it
 * used is in the finding. Pure: the same trace and options give the same findings.
 */
export interface WireJudgeOptions {
  /** A frame the server wrote within this many ms after a cancel may have crossed it. */
  readonly inFlightMs: number;
  /** The bound a call or a POST was waited for (`--hang-after`). */
  readonly hangAfterMs: number;
  /** The grace period after stdin EOF. */
  readonly graceMs: number;
  /**
   * The counterfactual: how long each call (by label) took in the same case without any cancel.
   * A result that arrives within the in-flight bound of its cancel is a crossing when the call
   * was due then anyway; without this, such a result is left `undecided`.
   */
  readonly durations?: ReadonlyMap<string, number>;
}

/** What the SDK or the server did that is its policy, not the author's bug (reported apart). */
export interface PolicyNote {
  readonly at: number;
  readonly call: string;
  readonly message: string;
}

export interface WireVerdict {
  readonly findings: Finding[];
  readonly policy: PolicyNote[];
  /** Calls whose result arrived within the in-flight bound of their cancel, with no counterfactual given. */
  readonly undecided: string[];
}

interface CallInfo {
  label: string;
  id: JsonValue;
  tool: string;
  args: JsonValue;
  token: JsonValue | undefined;
  sentAt: number;
  cancelledAt?: number;
  answeredAt?: number;
  /** Progress read after the cancel while unanswered: judged at the end, against the barrier when there is one. */
  readonly afterCancel: { readonly i: number; readonly t: number; readonly progress: JsonValue; readonly onHttpStream: boolean }[];
  /** The cancel's barrier: the ping sent right after it (`barrierPingId`), and when its answer was read. */
  barrierSent?: boolean;
  barrierAt?: { readonly i: number; readonly t: number };
  /**
   * The last progress read, per stream it came on (the POST exchange, the GET stream; -1 for
   * stdio): the order of two streams is not the order the server wrote them, so `increasing` is
   * judged within a stream.
   */
  readonly lastProgress: Map<number, number>;
  total?: number;
  flagged: Set<string>;
}

/**
 * The id of the `ping` a client sends right after it cancels request `requestId`: its answer is
 * the cancel's barrier. A server reads its input in order, so what it wrote after answering that
 * ping, it wrote after it had read the cancel; what came before the answer may have been on its
 * way already, however late a loaded machine made it.
 */
export const barrierPingId = (requestId: JsonValue): string => `mcp-sim-barrier-${idKey(requestId)}`;

/** Whether `id` is a barrier ping's (mcp-sim's own frames, left out where a transcript shows only the case's). */
export const isBarrierPingId = (id: JsonValue | undefined): boolean => typeof id === 'string' && id.startsWith('mcp-sim-barrier-');

/** Frames read this soon after the client wrote a cancel may have been in the pipe before it: not counted as after it. */
const BACKLOG_MS = 10;

const STACK_TRACE = /Traceback \(most recent call last\)|^panic: |goroutine \d+ \[running\]|thread '.*' panicked|Exception in thread|^\s+at .+:\d+:\d+\)?$|Unhandled exception/m;

const describe = (c: CallInfo) => `tool \`${c.tool}\` called with ${JSON.stringify(c.args)}${c.token === undefined ? '' : ` (progress token ${show(c.token)})`}`;

/** Judges one black-box run (see `WireJudgeOptions`). */
export function judgeWire(trace: readonly TraceEvent[], options: WireJudgeOptions): WireVerdict {
  const findings: Finding[] = [];
  const policy: PolicyNote[] = [];
  const undecided: string[] = [];
  const byId = new Map<string, CallInfo>();
  const byToken = new Map<string, CallInfo>();
  const labels = new Map<string, string>();
  const sentIds = new Set<string>();
  const answered = new Map<string, number>();
  const duplicateIds = new Set<string>();
  const requestSeqs = new Map<number, string>();
  /**
   * Pairing by stream (HTTP): the call each POST carried, and the exchange each server frame was
   * read on. With two calls of one id in flight, an answer belongs to the call whose POST stream
   * it came on, not to whichever was sent last.
   */
  const callBySeq = new Map<number, CallInfo>();
  const callByExchange = new Map<number, CallInfo>();
  const exchangeOfServerSeq = new Map<number, number>();
  /** Each call's own POST exchange, the GET streams, and the exchanges whose stream has ended. */
  const postExchangeOf = new Map<CallInfo, number>();
  const getExchanges = new Set<number>();
  const endedExchanges = new Set<number>();
  /** Calls sent and not yet answered, by id (several when the client reused an id in flight). */
  const inFlight = new Map<string, CallInfo[]>();
  /** Answers read for an id several calls share, when no stream told them apart (stdio). */
  const sharedAnswers = new Map<string, number>();
  /** The barrier ping's id → the call whose cancel it follows. */
  const barriers = new Map<string, CallInfo>();
  let lastCancelAction: string | undefined;
  /** The session id the server gave (a stateful server), and each session whose DELETE it accepted. */
  let sessionGiven: string | undefined;
  const deleted = new Map<string, number>();
  const notificationSeqs = new Set<number>();
  const initializeSeqs = new Set<number>();
  let stderr = '';
  let eofAt: number | undefined;
  let exit: Extract<TraceEvent, { kind: 'exit' }> | undefined;
  const end = trace.at(-1);
  const once = (c: CallInfo, id: Parameters<typeof finding>[0], at: number, message: string) => {
    if (c.flagged.has(id)) return;
    c.flagged.add(id);
    findings.push(finding(id, at, message, c.label, { sender: 'client', ids: [idKey(c.id)], call: c.label }));
  };

  /**
   * Session errors (basic/transports#session-management): a POST with a session id whose DELETE
   * the server accepted must get 404 (MUST); a POST other than initialize without a session id,
   * to a server that gave this client one, SHOULD get 400.
   */
  const sessionFindings = (req: Extract<TraceEvent, { kind: 'http-request' }>, res: Extract<TraceEvent, { kind: 'http-response' }>) => {
    if (req.method === 'DELETE' && req.session !== undefined && res.status >= 200 && res.status < 300) {
      deleted.set(req.session, res.status);
      return;
    }
    if (req.method !== 'POST') return;
    if (req.session !== undefined && deleted.has(req.session) && res.status !== 404) {
      findings.push(finding('http.session-deleted-404', res.i, `after the client's DELETE of session ${JSON.stringify(req.session)} was answered ${deleted.get(req.session)}, a POST with that Mcp-Session-Id was answered ${res.status}, not 404 Not Found: a terminated session must be gone (404 is how a client knows to start a new one)`));
    }
    const initializes = req.seqs.some((q) => initializeSeqs.has(q));
    if (req.session !== undefined || sessionGiven === undefined || initializes || res.status === 400) return;
    // Served with no session (no Mcp-Session-Id on the answer): this server does not require one for such a request; the SHOULD is for servers that do.
    if (res.status < 300 && res.session === undefined) {
      policy.push({ at: res.i, call: '-', message: `a POST without an Mcp-Session-Id header (a ping, not an initialize) was answered ${res.status} outside any session, although this server runs sessions (it gave this client ${JSON.stringify(sessionGiven)}): it serves session-less requests (an SDK's choice; a server that requires a session answers 400)` });
      return;
    }
    findings.push(finding('http.session-required-400', res.i, `a POST without an Mcp-Session-Id header (not an initialize) was answered ${res.status}${res.status < 300 ? ` inside session ${JSON.stringify(res.session)}` : ''}, although this server runs sessions (it gave this client ${JSON.stringify(sessionGiven)}): a server that requires a session should answer 400 Bad Request${res.status < 300 ? ', not serve the request in a session the client did not name' : ''}`));
  };

  /**
   * `progress.after-cancel` (SHOULD) for one cancelled call. With the barrier's answer read, only
   * progress read after it counts (the server had read the cancel): two such, or one later than
   * the in-flight bound after it (one right after may be a step caught between its check and its
   * send). Without one (no ping, or no answer to it): progress later than the in-flight bound
   * after the cancel, or more than two read later than BACKLOG_MS after it. The counts hold over
   * stdio only, where one pipe orders what was written; over HTTP only the times do.
   */
  const afterCancel = (c: CallInfo) => {
    if (c.cancelledAt === undefined) return;
    const barrier = c.barrierAt;
    if (barrier) {
      const counted = c.afterCancel.filter((p) => p.i > barrier.i);
      // Over stdio one pipe orders them: two read after the ping's answer were written after it.
      // Over HTTP the ping's answer and the progress come on two streams, which a loaded client
      // reads in either order: there only the time after the answer counts.
      const hit = counted.find((p) => p.t - barrier.t > options.inFlightMs) ?? counted.filter((p) => !p.onHttpStream)[1];
      if (hit) once(c, 'progress.after-cancel', hit.i, `${describe(c)} and cancelled: the server still sent progress ${hit.progress} ${Math.round(hit.t - c.cancelledAt)} ms after the cancel, and after it answered the ping sent right after the cancel (so it had read the cancel; ${counted.length} since the ping's answer): the cancellation does not reach the work`);
      return;
    }
    let since = 0;
    for (const p of c.afterCancel) {
      const late = p.t - c.cancelledAt;
      // What is read within BACKLOG_MS of writing the cancel may have sat in the pipe before it.
      if (late > BACKLOG_MS) since++;
      if (late > options.inFlightMs || (since > 2 && !p.onHttpStream)) {
        once(c, 'progress.after-cancel', p.i, `${describe(c)} and cancelled: the server still sent progress ${p.progress} ${Math.round(late)} ms after the cancel (${since} since; in-flight bound ${options.inFlightMs} ms): the cancellation does not reach the work`);
        return;
      }
    }
  };

  /**
   * The call an answer to `key` (read as server frame `seq`) belongs to: the one whose POST stream
   * it came on (HTTP); else the only call of that id in flight. Several in flight with no stream
   * to tell them apart (stdio): each counts as answered only once all of them were (undefined).
   */
  const answerOwner = (key: string, seq: number, t: number): CallInfo | undefined => {
    const pending = inFlight.get(key) ?? [];
    const exchange = exchangeOfServerSeq.get(seq);
    const onStream = exchange === undefined ? undefined : callByExchange.get(exchange);
    let owner: CallInfo | undefined;
    if (onStream && idKey(onStream.id) === key) owner = onStream;
    else if (pending.length <= 1) owner = pending[0] ?? byId.get(key);
    else {
      const n = (sharedAnswers.get(key) ?? 0) + 1;
      sharedAnswers.set(key, n);
      if (n < pending.length) return undefined;
      inFlight.delete(key);
      sharedAnswers.delete(key);
      for (const x of pending) x.answeredAt ??= t;
      return undefined;
    }
    inFlight.set(key, pending.filter((x) => x !== owner));
    return owner;
  };

  for (const e of trace) {
    if (e.kind === 'call-start') labels.set(idKey(e.id), e.call);
    else if (e.kind === 'action') lastCancelAction = /^(?:cancel|timeout) (c\d+)/.exec(e.action)?.[1];
    else if (e.kind === 'http-request' && e.at === 'client') {
      const c = e.seqs.map((q) => callBySeq.get(q)).find((x) => x !== undefined);
      if (c) {
        callByExchange.set(e.exchange, c);
        if (!postExchangeOf.has(c)) postExchangeOf.set(c, e.exchange);
      }
      if (e.method === 'GET') getExchanges.add(e.exchange);
    } else if (e.kind === 'sse-end' && e.at === 'client') endedExchanges.add(e.exchange);
    else if (e.kind === 'sse-event' && e.at === 'client' && e.seq !== undefined) exchangeOfServerSeq.set(e.seq, e.exchange);
    else if (e.kind === 'stderr') stderr += e.text;
    else if (e.kind === 'eof' && e.to === 'server') eofAt ??= e.t;
    else if (e.kind === 'exit') exit = e;
    else if (e.kind === 'send' && e.from === 'client' && isJsonObject(e.frame)) {
      const f = e.frame as Record<string, JsonValue>;
      if (typeof f.method === 'string' && 'id' in f) {
        const key = idKey(f.id);
        requestSeqs.set(e.seq, key);
        if (f.method === 'initialize') initializeSeqs.add(e.seq);
        if (sentIds.has(key) && !answered.has(key)) duplicateIds.add(key);
        sentIds.add(key);
        answered.delete(key);
        if (f.method === 'tools/call') {
          const params = isJsonObject(f.params) ? (f.params as Record<string, JsonValue>) : {};
          const meta = isJsonObject(params._meta) ? (params._meta as Record<string, JsonValue>) : {};
          const c: CallInfo = { label: labels.get(key) ?? `client:${show(f.id)}`, id: f.id!, tool: String(params.name), args: params.arguments ?? {}, token: meta.progressToken, sentAt: e.t, afterCancel: [], lastProgress: new Map(), flagged: new Set() };
          byId.set(key, c);
          callBySeq.set(e.seq, c);
          inFlight.set(key, [...(inFlight.get(key) ?? []), c]);
          if (c.token !== undefined) byToken.set(idKey(c.token), c);
        } else if (f.method === 'ping' && typeof f.id === 'string') {
          const c = [...byId.values()].find((x) => x.cancelledAt !== undefined && barrierPingId(x.id) === f.id);
          if (c) {
            c.barrierSent = true;
            barriers.set(key, c);
          }
        }
      } else if (typeof f.method === 'string') {
        notificationSeqs.add(e.seq);
        if (f.method === 'notifications/cancelled' && isJsonObject(f.params)) {
          const key = idKey((f.params as Record<string, JsonValue>).requestId);
          // With one id in flight twice, the case's action names the call it gave up.
          const c = inFlight.get(key)?.find((x) => x.label === lastCancelAction) ?? byId.get(key);
          if (c && c.cancelledAt === undefined) c.cancelledAt = e.t;
        }
      } else notificationSeqs.add(e.seq);
    } else if (e.kind === 'deliver' && e.to === 'client') {
      const frame = e.frame;
      if (!isJsonObject(frame)) {
        findings.push(finding('rpc.well-formed', e.i, `the server wrote ${JSON.stringify(String(frame).slice(0, 80))} where a JSON-RPC message belongs (stdout of a stdio server carries only JSON-RPC; logs go to stderr)`));
        continue;
      }
      const f = frame as Record<string, JsonValue>;
      if (f.method === 'notifications/progress' && isJsonObject(f.params)) {
        const p = f.params as Record<string, JsonValue>;
        const c = byToken.get(idKey(p.progressToken));
        if (!c) {
          if (!findings.some((x) => x.invariant === 'progress.token-requested' && x.message.includes(show(p.progressToken)))) {
            findings.push(finding('progress.token-requested', e.i, `the server sent progress with token ${show(p.progressToken)}, which no request of this client carried${byToken.size === 0 ? ' (no call asked for progress)' : ''}: progress must use the progressToken of the request it reports on, and only when the request has one`));
          }
          continue;
        }
        const stream = exchangeOfServerSeq.get(e.seq) ?? -1;
        if (c.answeredAt !== undefined) {
          once(c, 'progress.after-response', e.i, `${describe(c)}: the server sent progress ${p.progress} for it ${Math.round(e.t - c.answeredAt)} ms after its response: nothing may report on a request once it is answered`);
        }
        if (c.cancelledAt !== undefined && c.answeredAt === undefined) c.afterCancel.push({ i: e.i, t: e.t, progress: p.progress ?? null, onHttpStream: stream >= 0 });
        const progress = Number(p.progress);
        const last = c.lastProgress.get(stream);
        if (last !== undefined && !(progress > last)) {
          once(c, 'progress.increasing', e.i, `${describe(c)}: progress went from ${last} to ${progress}${stream >= 0 ? ' on one stream' : ''}: each progress must be greater than the last (a rounded percentage repeats)`);
        }
        c.lastProgress.set(stream, progress);
        const own = postExchangeOf.get(c);
        if (stream >= 0 && own !== undefined && stream !== own && !endedExchanges.has(own) && c.cancelledAt === undefined && c.answeredAt === undefined) {
          once(c, 'http.related-on-request-stream', e.i, `${describe(c)}: the server sent progress ${p.progress} for it on ${getExchanges.has(stream) ? 'the standalone GET stream' : `another POST's stream (exchange ${stream})`} while the call's own POST stream was open: messages on the GET stream SHOULD be unrelated to running requests, and two streams give the client no order (progress 2 can arrive before 1)`);
        }
        if (typeof p.total === 'number') {
          if (c.total !== undefined && p.total !== c.total) once(c, 'progress.total-stable', e.i, `${describe(c)}: total changed from ${c.total} to ${p.total} during the call: a client's progress bar jumps back`);
          c.total ??= p.total;
        }
        continue;
      }
      if ('result' in f || 'error' in f) {
        const key = idKey(f.id);
        if (f.id === null) continue;
        const barrierOf = barriers.get(key);
        if (barrierOf) {
          barrierOf.barrierAt ??= { i: e.i, t: e.t };
          continue;
        }
        if (!sentIds.has(key)) {
          findings.push(finding('rpc.response-matches-request', e.i, `the server answered id ${show(f.id)}, which this client never sent`));
          continue;
        }
        if (answered.has(key) && !duplicateIds.has(key)) {
          findings.push(finding('rpc.single-response', e.i, `the server answered id ${show(f.id)} twice`));
          continue;
        }
        answered.set(key, e.t);
        const c = answerOwner(key, e.seq, e.t);
        if (!c) continue;
        c.answeredAt ??= e.t;
        if (c.cancelledAt === undefined) continue;
        const error = isJsonObject(f.error) ? (f.error as Record<string, JsonValue>) : undefined;
        const after = e.t - c.cancelledAt;
        if (error) {
          policy.push({ at: e.i, call: c.label, message: `${describe(c)} and cancelled: the server answered the cancelled request with error ${error.code} ${JSON.stringify(error.message)} ${Math.round(after)} ms after the cancel${/cancel/i.test(String(error.message)) ? ' (the SDK\'s policy: it answers a cancelled request with an error; the spec says SHOULD NOT respond)' : ''}` });
          continue;
        }
        // A tool result marked isError that says it was cancelled is the cancellation propagated the
        // way that SDK reports it (the Go SDK turns a handler's ctx.Err() into such a result).
        const result = isJsonObject(f.result) ? (f.result as Record<string, JsonValue>) : {};
        if (result.isError === true && /cancel/i.test(JSON.stringify(result.content ?? ''))) {
          policy.push({ at: e.i, call: c.label, message: `${describe(c)} and cancelled: the server answered the cancelled request with a tool result marked isError that says ${JSON.stringify(JSON.stringify(result.content).slice(0, 80))} ${Math.round(after)} ms after the cancel (the SDK's way to end a cancelled call; the spec says SHOULD NOT respond)` });
          continue;
        }
        const due = options.durations?.get(c.label);
        if (after > options.inFlightMs) {
          once(c, 'cancel.no-response-after', e.i, `${describe(c)} and cancelled: the server still sent a result ${Math.round(after)} ms after the cancel (in-flight bound ${options.inFlightMs} ms): it ignored or swallowed the cancellation`);
        } else if (due === undefined) {
          undecided.push(c.label);
        } else if (c.cancelledAt - c.sentAt + options.inFlightMs < due) {
          once(c, 'cancel.no-response-after', e.i, `${describe(c)} and cancelled ${Math.round(c.cancelledAt - c.sentAt)} ms after it was sent: the server answered with a result ${Math.round(after)} ms after the cancel, although the same call without the cancel takes ${Math.round(due)} ms: the cancellation was turned into a result (swallowed)`);
        }
      }
    } else if (e.kind === 'http-response' && e.at === 'client') {
      // A POST of notifications or responses only: 202, no body (or an HTTP error).
      const req = trace.find((r) => r.kind === 'http-request' && r.exchange === e.exchange && r.at === 'client');
      for (const q of e.seqs) exchangeOfServerSeq.set(q, e.exchange);
      if (req?.kind === 'http-request') sessionFindings(req, e);
      if (e.session !== undefined) sessionGiven ??= e.session;
      if (req && req.kind === 'http-request' && req.method === 'POST' && req.seqs.length > 0 && req.seqs.every((s) => notificationSeqs.has(s)) && e.status < 400 && (e.status !== 202 || e.seqs.length > 0)) {
        findings.push(finding('http.accepted-202', e.i, `the server answered a POST of a notification with ${e.status}${e.contentType ? ` ${e.contentType}` : ''}, not 202 Accepted with no body`));
      }
    }
  }

  for (const c of new Set([...callBySeq.values(), ...byId.values()])) afterCancel(c);

  const endT = end?.t ?? 0;
  const endAt = end?.i ?? 0;
  // A client that closed the connection early (a plan's close) gave every call up then.
  const closedAt = trace.find((e) => e.kind === 'action' && e.action === 'close the connection')?.t;
  for (const c of new Set([...callBySeq.values(), ...byId.values()])) {
    // An answer later than the bound does not count (a server's SDK answers every pending request when stdin closes).
    const waited = (c.answeredAt ?? closedAt ?? endT) - c.sentAt;
    if (c.cancelledAt === undefined && waited >= options.hangAfterMs) {
      once(c, 'liveness.call-settles', endAt, `${describe(c)}: no response ${c.answeredAt === undefined ? `after ${Math.round(waited)} ms` : `for ${Math.round(waited)} ms (it came only when the client closed the connection)`}, and the client neither cancelled it nor timed out (bound --hang-after ${options.hangAfterMs} ms): the tool never ends`);
    }
  }

  // A POST carrying a request must end (JSON body, or an SSE stream that closes), cancelled or not.
  for (const e of trace) {
    if (e.kind !== 'http-request' || e.at !== 'client' || e.method !== 'POST') continue;
    const key = e.seqs.map((s) => requestSeqs.get(s)).find((k) => k !== undefined);
    if (key === undefined) continue;
    const head = trace.find((r) => r.kind === 'http-response' && r.at === 'client' && r.exchange === e.exchange);
    const sse = head?.kind === 'http-response' && head.contentType?.includes('text/event-stream');
    const ended = head !== undefined && (!sse || trace.some((r) => r.kind === 'sse-end' && r.exchange === e.exchange));
    const dropped = trace.find((r) => r.kind === 'http-disconnect' && r.exchange === e.exchange);
    if (ended) continue;
    const c = callByExchange.get(e.exchange) ?? byId.get(key);
    const from = c?.cancelledAt ?? answered.get(key) ?? e.t;
    const waited = (dropped?.t ?? endT) - from;
    const droppedByCase = dropped !== undefined && trace.some((r) => r.kind === 'action' && r.t <= dropped.t + 1 && /drop its POST stream/.test(r.action) && c !== undefined && r.action.includes(` ${c.label} `));
    if (droppedByCase || waited < options.hangAfterMs) continue;
    findings.push(
      finding('http.exchange-completes', dropped?.i ?? endAt, `${c ? describe(c) : `request ${key}`}${c?.cancelledAt !== undefined ? ' and cancelled' : ''}: its POST never ended (${head === undefined ? 'no response head' : 'the SSE stream stayed open'}) ${Math.round(waited)} ms after ${c?.cancelledAt !== undefined ? 'the cancel' : answered.has(key) ? 'its response' : 'it was sent'} (bound --hang-after ${options.hangAfterMs} ms): a client waiting on it hangs`, c?.label, { sender: 'client', ids: [key] }),
    );
  }

  if (eofAt !== undefined && exit) {
    const crashed = STACK_TRACE.exec(stderr);
    const problems: string[] = [];
    if (exit.after === 'sigterm' || exit.after === 'sigkill') problems.push(`it did not exit within ${options.graceMs} ms of stdin EOF (ended by ${exit.after.toUpperCase()})`);
    else if (exit.signal !== null) problems.push(`it died of ${exit.signal}`);
    else if (exit.code !== 0) problems.push(`it exited with code ${exit.code}`);
    if (crashed) problems.push(`its stderr shows a crash: ${JSON.stringify(crashed[0].trim())}`);
    if (problems.length > 0) findings.push(finding('lifecycle.stdio-exit', exit.i, `after stdin closed (the stdio shutdown), the server process misbehaved: ${problems.join('; ')}`, undefined, { side: 'server' }));
  } else if (exit && exit.after === 'before-eof') {
    findings.push(finding('lifecycle.stdio-exit', exit.i, `the server process exited during the run, before stdin was closed (${exit.signal ?? `code ${exit.code}`})${STACK_TRACE.test(stderr) ? ', with a stack trace on stderr' : ''}`, undefined, { side: 'server' }));
  }
  return { findings, policy, undecided };
}
