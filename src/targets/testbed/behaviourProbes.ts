import { performance } from 'node:perf_hooks';
import type { HandlerProgram } from '../../sim/scenario.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { REQUESTED_PROTOCOL_VERSION } from '../../real/index.ts';
import { exited, spawnOwned, stopOwned } from '../../real/processRegistry.ts';
import { argvOf } from '../../real/startProcess.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import type { Plan } from '../../real/plan.ts';
import { runPlan } from '../../real/runPlan.ts';
import { SIDE_CHANNEL_PREFIX, type SideChannelEvent } from './handlerEvents.ts';
import { TESTBED_TOOL } from './programCall.ts';
import { endpointOf } from './runProgram.ts';
import type { SdkTestbed, SdkTestbedTransport } from './sdkTestbed.ts';

/**
 * Four questions the spec answers and every SDK answers its own way (issue 22), each asked by a
 * probe on an installed test bed, black box and real time:
 *
 * 1. `cancelPostProbe`: the POST of a `tools/call` cancelled while its handler runs (Streamable
 *    HTTP). basic/utilities/cancellation: the receiver SHOULD NOT send a response for a cancelled
 *    request; over Streamable HTTP its POST's stream then has nothing left to carry, so it should
 *    close, and the cancel's own POST (a notification) gets 202 Accepted (basic/transports).
 * 2. `stdinEofProbe`: stdin EOF with a call in flight (stdio). basic/transports (stdio) and
 *    lifecycle (shutdown): the client ends a stdio session by closing the server's stdin and the
 *    server is expected to exit; SIGTERM is the client's fallback.
 * 3. `duplicateIdProbe`: two `tools/call` with one id in flight (stdio, stateful SSE HTTP).
 *    basic (requests): the id MUST NOT have been used by the requester before in the same
 *    session. A client that breaks it is wrong, but a server must neither crash nor give one
 *    caller another's answer.
 * 4. `cancelInitializeProbe`: `notifications/cancelled` for `initialize` (stdio, raw frames).
 *    basic/utilities/cancellation: the client MUST NOT cancel `initialize`; a server that gets
 *    one anyway should ignore it (an unknown or uncancellable request) and go on.
 *
 * Each probe returns a classified `answer` (words only, no numbers, so three runs can be
 * compared), `times` (the ms that vary between runs) and the `evidence`: the frames and the
 * side channel, one short line each with its real time.
 */

export type BehaviourQuestion = 'cancel-post' | 'stdin-eof' | 'duplicate-ids' | 'cancel-initialize';

export interface ProbeAnswer {
  readonly question: BehaviourQuestion;
  readonly transport: SdkTestbedTransport;
  /** The classified answer, the same words whenever the SDK does the same thing. */
  readonly answer: string;
  /** Times that vary from run to run (ms), named. */
  readonly times: Readonly<Record<string, number>>;
  /** The frames, HTTP events, exit and side channel, one line each: `t ms  what`. */
  readonly evidence: readonly string[];
  readonly wallMs: number;
}

/** A probe's answer over several runs: the answers with their counts, most frequent first. */
export interface RatedAnswer {
  readonly question: BehaviourQuestion;
  readonly transport: SdkTestbedTransport;
  readonly runs: number;
  readonly answers: readonly { readonly answer: string; readonly count: number }[];
  /** The median of each time over the runs that have it. */
  readonly times: Readonly<Record<string, number>>;
  readonly wallMs: number;
  /** Every run's answer, the evidence included. */
  readonly samples: readonly ProbeAnswer[];
}

const program = (ms: number): HandlerProgram => ({ steps: [{ kind: 'sleep', ms }], end: { kind: 'result' }, onAbort: 'honour' });
const runArgs = (p: HandlerProgram, call: string) => ({ program: p as unknown as JsonValue, call });

const short = (v: unknown, n = 150) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > n ? `${s.slice(0, n)}…` : s;
};

/** The side channel's events in a trace's stderr text, each with the time of the chunk that carried it. */
export function sideChannel(trace: readonly TraceEvent[]): { t: number; e: SideChannelEvent }[] {
  const out: { t: number; e: SideChannelEvent }[] = [];
  let buffer = '';
  for (const ev of trace) {
    if (ev.kind !== 'stderr') continue;
    buffer += ev.text;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith(SIDE_CHANNEL_PREFIX)) continue;
      try {
        out.push({ t: ev.t, e: JSON.parse(line.slice(SIDE_CHANNEL_PREFIX.length)) as SideChannelEvent });
      } catch {
        // A broken line is the side channel test's business (handlerEvents.ts), not this probe's.
      }
    }
  }
  return out;
}

/** The trace as evidence lines: frames both ways, HTTP heads and stream ends, EOF, exit, side channel; stderr noise left out. */
export function evidenceOf(trace: readonly TraceEvent[]): string[] {
  const lines: string[] = [];
  const at = (t: number) => `${Math.round(t)} ms`.padStart(8);
  for (const e of trace) {
    if (e.kind === 'send') lines.push(`${at(e.t)}  → ${short(e.frame)}`);
    else if (e.kind === 'deliver') lines.push(`${at(e.t)}  ← ${short(e.frame)}`);
    else if (e.kind === 'http-request') lines.push(`${at(e.t)}  #${e.exchange} ${e.method}${e.raw ? ' (session check)' : ''}`);
    else if (e.kind === 'http-response') lines.push(`${at(e.t)}  #${e.exchange} ${e.status}${e.contentType ? ` ${e.contentType.split(';')[0]}` : ''}${e.error ? ` ${short(e.error, 80)}` : ''}`);
    else if (e.kind === 'sse-end') lines.push(`${at(e.t)}  #${e.exchange} stream ended`);
    else if (e.kind === 'http-disconnect') lines.push(`${at(e.t)}  #${e.exchange} dropped by the client`);
    else if (e.kind === 'eof') lines.push(`${at(e.t)}  EOF ${e.to === 'server' ? 'of stdin (client closes)' : 'of stdout'}`);
    else if (e.kind === 'exit') lines.push(`${at(e.t)}  exit ${e.signal ?? `code ${e.code}`} (${e.after})`);
    else if (e.kind === 'action') lines.push(`${at(e.t)}  client: ${e.action}`);
    else if (e.kind === 'send-failed') lines.push(`${at(e.t)}  send failed: ${short(e.error, 80)}`);
  }
  for (const { t, e } of sideChannel(trace)) lines.push(`${at(t)}  side channel: ${e.event} ${e.call ?? ''}${e.id !== undefined ? ` id ${JSON.stringify(e.id)}` : ''}${e.outcome ? ` ${e.outcome}` : ''}`);
  return lines.sort((a, b) => parseFloat(a) - parseFloat(b));
}

/** The exchange (POST) each server frame came on, by its seq (SSE events and JSON bodies say). */
function exchangeOfSeq(trace: readonly TraceEvent[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const e of trace) {
    if (e.kind === 'sse-event' && e.seq !== undefined) m.set(e.seq, e.exchange);
    if (e.kind === 'http-response') for (const s of e.seqs) m.set(s, e.exchange);
  }
  return m;
}

/** The exchange that carried the client frame `pred` picks (HTTP). */
function exchangeOfSend(trace: readonly TraceEvent[], pred: (frame: JsonValue) => boolean): number[] {
  const seqs = trace.filter((e): e is Extract<TraceEvent, { kind: 'send' }> => e.kind === 'send' && pred(e.frame)).map((e) => e.seq);
  return trace.filter((e): e is Extract<TraceEvent, { kind: 'http-request' }> => e.kind === 'http-request' && e.seqs.some((s) => seqs.includes(s))).map((e) => e.exchange);
}

const answersTo = (trace: readonly TraceEvent[], id: JsonValue) =>
  trace.filter((e): e is Extract<TraceEvent, { kind: 'deliver' }> => e.kind === 'deliver' && isJsonObject(e.frame) && e.frame.id === id && ('result' in e.frame || 'error' in e.frame) && !('method' in e.frame));

const errorCode = (frame: JsonValue): number | string | undefined => (isJsonObject(frame) && isJsonObject(frame.error) ? (frame.error.code as number) : undefined);

const callId = (trace: readonly TraceEvent[], label: string) => {
  const s = trace.find((e) => e.kind === 'call-start' && e.call === label);
  return s?.kind === 'call-start' ? s.id : undefined;
};

const exitOf = (trace: readonly TraceEvent[]) => trace.find((e): e is Extract<TraceEvent, { kind: 'exit' }> => e.kind === 'exit');

/** How long a POST left open after the cancel counts as hanging (the issue's 3 s). */
export const CANCEL_HANG_MS = 3_000;
/** When the client cancels the call of question 1, after writing it; its handler sleeps `CANCELLED_SLEEP_MS`. */
export const CANCEL_AFTER_MS = 200;
export const CANCELLED_SLEEP_MS = 1_000;

/**
 * Question 1 (Streamable HTTP, one mode): a `tools/call` whose handler sleeps 1 s (onAbort
 * honour), cancelled 200 ms after its POST was sent. Answers what that POST got — an error
 * (code), the result anyway, its stream closed with no answer, or still open 3 s after the
 * cancel (hangs) — and the status of the cancel's own POST (202 is what the spec asks for a
 * notification), plus whether the handler was told (side channel `abort-observed`).
 */
export async function cancelPostProbe(bed: SdkTestbed, transport: SdkTestbedTransport): Promise<ProbeAnswer> {
  const t0 = performance.now();
  const plan: Plan = {
    calls: [{ label: 'c1', tool: TESTBED_TOOL, arguments: runArgs(program(CANCELLED_SLEEP_MS), 'c1'), at: { kind: 'start', ms: 0 }, cancel: { kind: 'written', call: 'c1', ms: CANCEL_AFTER_MS }, cancelHow: 'notify' }],
    serverRequests: 'answer',
  };
  const run = await runPlan(endpointOf(bed, transport), plan, { hangAfterMs: CANCEL_HANG_MS, tailMs: 300 });
  const trace = run.trace;
  const id = callId(trace, 'c1')!;
  const cancelAt = trace.find((e) => e.kind === 'action' && e.action.startsWith('cancel c1'))?.t ?? 0;
  const [callEx] = exchangeOfSend(trace, (f) => isJsonObject(f) && f.method === 'tools/call');
  const [cancelEx] = exchangeOfSend(trace, (f) => isJsonObject(f) && f.method === 'notifications/cancelled');
  const callHead = trace.find((e) => e.kind === 'http-response' && e.exchange === callEx);
  const cancelHead = trace.find((e): e is Extract<TraceEvent, { kind: 'http-response' }> => e.kind === 'http-response' && e.exchange === cancelEx);
  const ended = trace.find((e) => (e.kind === 'sse-end' && e.exchange === callEx) || (e.kind === 'http-response' && e.exchange === callEx && (e.contentType === undefined || !e.contentType.includes('event-stream'))));
  const answers = answersTo(trace, id);
  const told = sideChannel(trace).some(({ e }) => e.event === 'abort-observed' && e.call === 'c1');
  const times: Record<string, number> = {};
  let what: string;
  const a = answers[0];
  if (a) {
    times.answerAfterCancelMs = Math.round(a.t - cancelAt);
    const code = errorCode(a.frame);
    what = code === undefined ? 'the result anyway' : `error ${code}`;
    if (answers.length > 1) what += ` (${answers.length} answers)`;
  } else if (callHead?.kind === 'http-response' && callHead.status >= 400) {
    what = `HTTP ${callHead.status}, no answer`;
  } else if (ended && ended.t - cancelAt < CANCEL_HANG_MS) {
    times.closedAfterCancelMs = Math.round(ended.t - cancelAt);
    what = 'stream closed, no answer';
  } else {
    what = 'hangs (open 3 s after the cancel)';
  }
  const cancelStatus = cancelHead ? `cancel POST ${cancelHead.status}` : 'cancel POST no answer';
  return { question: 'cancel-post', transport, answer: `${what}; ${cancelStatus}; handler ${told ? 'told' : 'not told'}`, times, evidence: evidenceOf(trace), wallMs: Math.round(performance.now() - t0) };
}

/** Question 2: the call's handler sleeps this long (onAbort honour); stdin closes `EOF_AFTER_MS` after the call was written. */
export const EOF_SLEEP_MS = 1_500;
export const EOF_AFTER_MS = 150;

/**
 * Question 2 (stdio): a call whose handler sleeps 1.5 s (onAbort honour), stdin closed 150 ms
 * after the call was written, then the stdio shutdown as a client does it (grace 3 s, SIGTERM,
 * grace, SIGKILL: `stdioEndpoint`'s `stop`). Answers whether the call is answered before the
 * process ends (result, error code, nothing), whether the handler was told (abort-observed) or
 * ran to its end, and how the process ended: by itself (how many ms after EOF, exit code) or
 * only at SIGTERM / SIGKILL.
 */
export async function stdinEofProbe(bed: SdkTestbed): Promise<ProbeAnswer> {
  const t0 = performance.now();
  const plan: Plan = {
    calls: [{ label: 'c1', tool: TESTBED_TOOL, arguments: runArgs(program(EOF_SLEEP_MS), 'c1'), at: { kind: 'start', ms: 0 } }],
    serverRequests: 'answer',
    close: { kind: 'written', call: 'c1', ms: EOF_AFTER_MS },
  };
  const run = await runPlan(endpointOf(bed, 'stdio'), plan, { hangAfterMs: 5_000 });
  const trace = run.trace;
  const id = callId(trace, 'c1')!;
  const eof = trace.find((e) => e.kind === 'eof' && e.to === 'server');
  const exit = exitOf(trace);
  const answers = answersTo(trace, id);
  const side = sideChannel(trace).filter(({ e }) => e.call === 'c1');
  const told = side.some(({ e }) => e.event === 'abort-observed');
  const end = side.find(({ e }) => e.event === 'handler-end');
  const times: Record<string, number> = {};
  const a = answers[0];
  const answered = a ? (errorCode(a.frame) === undefined ? 'result' : `error ${errorCode(a.frame)}`) : 'no answer';
  const handler = told ? 'handler told' : end ? `handler ran to its end (${end.e.outcome})` : 'handler not told';
  let how: string;
  if (!exit) how = 'still running';
  else if (exit.after === 'before-eof') how = 'exited before EOF';
  else if (exit.after === 'eof') {
    times.exitAfterEofMs = Math.round(exit.t - (eof?.t ?? exit.t));
    how = `exits by itself (${exit.signal ?? `code ${exit.code}`})`;
    if (end && end.e.outcome === 'result' && eof && end.t > eof.t + EOF_SLEEP_MS / 2) how += ' after the handler ends';
  } else how = `exits only at ${exit.after === 'sigterm' ? 'SIGTERM' : 'SIGKILL'}`;
  if (a && eof) times.answerAfterEofMs = Math.round(a.t - eof.t);
  return { question: 'stdin-eof', transport: 'stdio', answer: `${answered}; ${handler}; ${how}`, times, evidence: evidenceOf(trace), wallMs: Math.round(performance.now() - t0) };
}

/** Question 3: the first call sleeps `DUP_FIRST_MS`, the second (same id, written `DUP_GAP_MS` later) `DUP_SECOND_MS`. */
export const DUP_FIRST_MS = 300;
export const DUP_SECOND_MS = 50;
export const DUP_GAP_MS = 20;

/**
 * Question 3 (stdio, stateful SSE HTTP): `c1` (sleep 300 ms then result) and, 20 ms after it,
 * `c2` (sleep 50 ms then result) with c1's id. Which answer is whose is told by the side channel:
 * results come out in the order their handlers end (`handler-end` names the `call`); without it,
 * by time (a result read before c1's handler could have ended is c2's).
 * Classes: both answered (HTTP: each on its own POST, or cross-wired: c1's POST gets c2's
 * answer, or c2's POST c1's), the second rejected (error code or HTTP status), one lost (which one), none, or the
 * process crashed.
 */
export async function duplicateIdProbe(bed: SdkTestbed, transport: SdkTestbedTransport): Promise<ProbeAnswer> {
  const t0 = performance.now();
  const plan: Plan = {
    calls: [
      { label: 'c1', tool: TESTBED_TOOL, arguments: runArgs(program(DUP_FIRST_MS), 'c1'), at: { kind: 'start', ms: 0 } },
      { label: 'c2', tool: TESTBED_TOOL, arguments: runArgs(program(DUP_SECOND_MS), 'c2'), at: { kind: 'written', call: 'c1', ms: DUP_GAP_MS }, sameIdAs: 'c1' },
    ],
    serverRequests: 'answer',
  };
  const run = await runPlan(endpointOf(bed, transport), plan, { hangAfterMs: 3_000, tailMs: 1_000 });
  const trace = run.trace;
  const id = callId(trace, 'c1')!;
  const c1At = trace.find((e) => e.kind === 'call-start' && e.call === 'c1')!.t;
  const answers = answersTo(trace, id);
  const side = sideChannel(trace);
  const started = new Set(side.filter(({ e }) => e.event === 'handler-start').map(({ e }) => e.call));
  const exit = exitOf(trace);
  const crashed = exit !== undefined && exit.after === 'before-eof';
  const http = transport !== 'stdio';
  const exOf = exchangeOfSeq(trace);
  const [ex1, ex2] = exchangeOfSend(trace, (f) => isJsonObject(f) && f.method === 'tools/call');
  // Whose answer: the SDK writes a result when its handler ends, so the k-th result is the k-th
  // handler to end with a result (the side channel's `call` label); without the side channel, a
  // result read before c1's 300 ms could be over is c2's (50 ms). An error is a rejection.
  const ends = side.filter(({ e }) => e.event === 'handler-end' && e.outcome === 'result').map(({ e }) => e.call);
  let k = 0;
  const whose = (e: Extract<TraceEvent, { kind: 'deliver' }>) => {
    if (errorCode(e.frame) !== undefined) return 'error';
    const byEnd = ends[k++];
    return byEnd === 'c1' || byEnd === 'c2' ? byEnd : e.t - c1At < DUP_FIRST_MS - 60 ? 'c2' : 'c1';
  };
  const described = answers.map((e) => {
    const w = whose(e);
    const on = http ? exOf.get(e.seq) : undefined;
    const method = trace.find((x) => x.kind === 'http-request' && x.exchange === on);
    const post = on === undefined ? '' : on === ex1 ? ' on c1 POST' : on === ex2 ? ' on c2 POST' : method?.kind === 'http-request' && method.method === 'GET' ? ' on the GET stream' : ` on exchange #${on}`;
    return { w, post, code: errorCode(e.frame), text: w === 'error' ? `error ${errorCode(e.frame)}${post}` : `${w}'s result${post}` };
  });
  const head2 = trace.find((e): e is Extract<TraceEvent, { kind: 'http-response' }> => e.kind === 'http-response' && e.exchange === ex2);
  const times: Record<string, number> = {};
  if (answers[0]) times.firstAnswerMs = Math.round(answers[0].t - c1At);
  let what: string;
  const results = described.filter((d) => d.w !== 'error');
  const errors = described.filter((d) => d.w === 'error');
  if (crashed) what = `crashed (${exit.signal ?? `code ${exit.code}`})`;
  else if (http && head2 && head2.status >= 400 && !described.some((d) => d.post === ' on c2 POST')) what = `second POST rejected: HTTP ${head2.status}${results.length ? `; ${results.map((r) => r.text).join(', ')}` : ''}`;
  else if (errors.length > 0) what = `rejected: ${errors.map((e) => e.text).join(', ')}${results.length ? `; ${results.map((r) => r.text).join(', ')}` : ''}`;
  else if (http && results.some((r) => (r.w === 'c2' && r.post === ' on c1 POST') || (r.w === 'c1' && r.post === ' on c2 POST'))) what = `cross-wired: ${results.map((r) => r.text).join(', ')}`;
  else if (results.length >= 2) what = http ? `both answered: ${results.map((r) => r.text).join(', ')}` : `both answered (${results.length} answers with the id)`;
  else if (results.length === 1) what = `one lost: only ${results[0]!.text}`;
  else what = 'none answered';
  if (http && !crashed) {
    // A POST that carried no answer: closed empty, or still open when the client closed the session.
    const closeAt = trace.find((e) => e.kind === 'http-request' && (e.raw === true || e.method === 'DELETE'))?.t ?? Infinity;
    const fates = (
      [
        ['c1', ex1],
        ['c2', ex2],
      ] as const
    ).flatMap(([label, ex]) => {
      if (ex === undefined || described.some((d) => d.post === ` on ${label} POST`)) return [];
      const head = trace.find((e): e is Extract<TraceEvent, { kind: 'http-response' }> => e.kind === 'http-response' && e.exchange === ex);
      if (head && head.status >= 400) return [];
      const end = trace.find((e) => (e.kind === 'sse-end' && e.exchange === ex) || (e.kind === 'http-response' && e.exchange === ex && !(e.contentType ?? '').includes('event-stream')));
      return [`${label} POST ${end && end.t < closeAt ? 'closed with no answer' : 'open until the close'}`];
    });
    if (fates.length) what += `; ${fates.join(', ')}`;
  }
  const handlers = `handlers started: ${['c1', 'c2'].filter((c) => started.has(c)).join(', ') || 'none'}`;
  return { question: 'duplicate-ids', transport, answer: `${what}; ${handlers}`, times, evidence: evidenceOf(trace), wallMs: Math.round(performance.now() - t0) };
}

/**
 * Question 4 (stdio, raw frames over an owned process: the handshake of `Target` waits for
 * initialize's answer before it can send anything else). `initialize` (id 0) and at once
 * `notifications/cancelled` naming id 0, both written before any answer is read, and a `ping`
 * (its answer tells the server read past the cancel; initialize gets 1 s more); then, answered or not, `notifications/initialized` and a `tools/call` (id 1, a program that returns at once).
 * Answers whether initialize is still answered, whether the session then works, or the process
 * crashed. The process is stopped the stdio way (`stopOwned`) so none outlives the probe.
 */
export async function cancelInitializeProbe(bed: SdkTestbed, waitMs = 3_000): Promise<ProbeAnswer> {
  const t0 = performance.now();
  const now = () => Math.round((performance.now() - t0) * 10) / 10;
  const events: TraceEvent[] = [];
  let i = 0;
  const record = (body: Record<string, unknown>) => events.push({ ...body, i: i++, step: 0, t: now() } as unknown as TraceEvent);
  const [cmd, args] = argvOf(bed.stdio, 0);
  const child = spawnOwned(cmd, args, { ...(bed.stdio.cwd !== undefined && { cwd: bed.stdio.cwd }), env: { ...process.env, ...bed.stdio.env } });
  const frames: JsonValue[] = [];
  const waiters: (() => void)[] = [];
  let buf = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      let frame: JsonValue;
      try {
        frame = JSON.parse(line) as JsonValue;
      } catch {
        frame = line;
      }
      frames.push(frame);
      record({ kind: 'deliver', to: 'client', conn: 0, seq: frames.length - 1, frame, burst: 1 });
      for (const w of waiters.splice(0)) w();
    }
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => record({ kind: 'stderr', text }));
  child.stdin!.on('error', () => {});
  let gone = false;
  let after: 'before-eof' | 'eof' | 'sigterm' | 'sigkill' = 'before-eof';
  child.once('exit', (code, signal) => {
    gone = true;
    record({ kind: 'exit', code, signal, after });
    for (const w of waiters.splice(0)) w();
  });
  const send = (frame: JsonValue) => {
    if (gone) return;
    record({ kind: 'send', from: 'client', conn: 0, seq: 0, frame });
    child.stdin!.write(`${JSON.stringify(frame)}\n`);
  };
  const waitAnswer = async (id: number, ms: number) => {
    const deadline = performance.now() + ms;
    for (;;) {
      const f = frames.find((x) => isJsonObject(x) && x.id === id && ('result' in x || 'error' in x));
      if (f !== undefined || gone) return f;
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      await new Promise<void>((r) => {
        const timer = setTimeout(r, left);
        waiters.push(() => {
          clearTimeout(timer);
          r();
        });
      });
    }
  };
  let init: JsonValue | undefined;
  let call: JsonValue | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: REQUESTED_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'mcp-sim-probe', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0, reason: 'mcp-sim cancels initialize' } });
    // A ping after the cancel: its answer shows the server has read past the cancel (a JVM or a
    // venv start can take a while: that bound is the start-up's); initialize then gets 1 s more.
    send({ jsonrpc: '2.0', id: 'mcp-sim-ping', method: 'ping' });
    const deadline = performance.now() + 20_000;
    while (performance.now() < deadline && !gone && !frames.some((x) => isJsonObject(x) && (x.id === 0 || x.id === 'mcp-sim-ping'))) await new Promise((r) => setTimeout(r, 10));
    init = await waitAnswer(0, 1_000);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: TESTBED_TOOL, arguments: runArgs({ steps: [], end: { kind: 'result' }, onAbort: 'honour' }, 'c1') } });
    call = await waitAnswer(1, waitMs);
  } finally {
    const crashedBefore = gone;
    if (!crashedBefore) {
      after = 'eof';
      record({ kind: 'eof', to: 'server', conn: 0 });
      const how = await stopOwned(child);
      if (how === 'sigterm' || how === 'sigkill') after = how;
      await exited(child, 1_000);
    }
  }
  const exit = exitOf(events);
  const crashed = exit?.after === 'before-eof';
  const initText = init === undefined ? 'initialize not answered' : errorCode(init) !== undefined ? `initialize answered error ${errorCode(init)}` : 'initialize answered';
  const callText = crashed ? `crashed (${exit!.signal ?? `code ${exit!.code}`})` : call === undefined ? 'tools/call not answered' : errorCode(call) !== undefined ? `tools/call error ${errorCode(call)}` : 'session works';
  const times: Record<string, number> = {};
  const initEv = events.find((e) => e.kind === 'deliver' && isJsonObject(e.frame) && e.frame.id === 0);
  if (initEv) times.initializeMs = Math.round(initEv.t);
  return { question: 'cancel-initialize', transport: 'stdio', answer: `${initText}; ${callText}`, times, evidence: evidenceOf(events), wallMs: Math.round(performance.now() - t0) };
}

/** Runs a probe `runs` times in a row and rates its answers (real time: runs may differ). */
export async function rated(runs: number, probe: () => Promise<ProbeAnswer>): Promise<RatedAnswer> {
  const samples: ProbeAnswer[] = [];
  for (let n = 0; n < runs; n++) samples.push(await probe());
  const counts = new Map<string, number>();
  for (const s of samples) counts.set(s.answer, (counts.get(s.answer) ?? 0) + 1);
  const times: Record<string, number> = {};
  for (const key of new Set(samples.flatMap((s) => Object.keys(s.times)))) {
    const v = samples.flatMap((s) => (s.times[key] === undefined ? [] : [s.times[key]!])).sort((a, b) => a - b);
    times[key] = v[Math.floor(v.length / 2)]!;
  }
  return {
    question: samples[0]!.question,
    transport: samples[0]!.transport,
    runs,
    answers: [...counts].map(([answer, count]) => ({ answer, count })).sort((a, b) => b.count - a.count),
    times,
    wallMs: samples.reduce((s, x) => s + x.wallMs, 0),
    samples,
  };
}

/** One cell: the answer, and its rate when the runs differ (`A (2/3); B (1/3)`). */
export function ratedText(r: RatedAnswer): string {
  return r.answers.length === 1 ? r.answers[0]!.answer : r.answers.map((a) => `${a.answer} (${a.count}/${r.runs})`).join('; ');
}

/** The transports each question applies to on `bed`. */
export function probeTransports(bed: SdkTestbed, question: BehaviourQuestion): SdkTestbedTransport[] {
  if (question === 'cancel-post') return bed.modes.map((m) => `http-${m}` as const);
  if (question === 'duplicate-ids') return ['stdio', ...(bed.modes.includes('stateful-sse') ? (['http-stateful-sse'] as const) : [])];
  return ['stdio'];
}

/** Every question on `bed`, over each transport it applies to, each probe `runs` times. */
export async function probeBehaviours(bed: SdkTestbed, options: { readonly runs?: number; readonly questions?: readonly BehaviourQuestion[]; readonly onResult?: (r: RatedAnswer) => void } = {}): Promise<RatedAnswer[]> {
  const runs = options.runs ?? 3;
  const out: RatedAnswer[] = [];
  const questions = options.questions ?? (['cancel-post', 'stdin-eof', 'duplicate-ids', 'cancel-initialize'] as const);
  for (const q of questions) {
    for (const transport of probeTransports(bed, q)) {
      const r = await rated(runs, () =>
        q === 'cancel-post' ? cancelPostProbe(bed, transport) : q === 'stdin-eof' ? stdinEofProbe(bed) : q === 'duplicate-ids' ? duplicateIdProbe(bed, transport) : cancelInitializeProbe(bed),
      );
      options.onResult?.(r);
      out.push(r);
    }
  }
  return out;
}
