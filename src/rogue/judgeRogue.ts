import { finding, type Finding } from '../model/finding.ts';
import { isJsonObject, isNotificationFrame, isRequestFrame, isResponseFrame } from '../util/jsonrpc.ts';
import type { JsonValue } from '../util/json.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { RogueRunResult } from './runRogue.ts';

/**
 * What the SDK side did with the attack, the strongest effect first: an escape (`crash`), its
 * connection closing (`closed`), an error response, a result, only an `onerror` callback, some
 * other visible effect (`handled`: a handler ran or aborted, `onprogress`, a call settled), or
 * nothing at all (`ignored`).
 */
export type RogueReaction = 'crash' | 'closed' | 'error-response' | 'result' | 'onerror' | 'handled' | 'ignored';

export interface RogueVerdict {
  readonly reaction: RogueReaction;
  /** Every effect seen during the attack, in order, one short phrase each. */
  readonly effects: readonly string[];
  /** Codes of the error responses the SDK sent during the attack. */
  readonly errorCodes: readonly number[];
  /** Requests whose handler an incoming cancel aborted during the attack, by wire id. */
  readonly abortedIds: readonly string[];
  /** Broken rules on the SDK side. The rogue's own breaches are the point of the run, not findings. */
  readonly findings: readonly Finding[];
}

type Obj = { [key: string]: JsonValue };
// The frame classification of util/jsonrpc, narrowed to the JSON the trace holds.
const isObj = (v: JsonValue | undefined): v is Obj => isJsonObject(v);
/** Type-strict id key: `1` and `"1"` differ, as JSON-RPC says. */
const key = (id: JsonValue | undefined): string => (id === undefined ? 'undefined' : JSON.stringify(id));
const isRequest = (f: JsonValue): f is Obj => isRequestFrame(f);
/** A notification, or a batch of nothing but notifications (neither may be answered). */
const isNotification = (f: JsonValue): boolean => isNotificationFrame(f) || (Array.isArray(f) && f.length > 0 && f.every(isNotification));
const isResponse = (f: JsonValue): f is Obj => isResponseFrame(f);
const paramsOf = (f: Obj): Obj => (isObj(f.params) ? f.params : {});
const short = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Judges one rogue run from its trace alone (a pure checker: it never touches the run). The
 * SDK endpoint must stay usable and must not break the rules that bind it whatever its peer
 * sends: no reply to a notification, one response per request and only to a request it
 * received, no escape, no dead session, the follow-up answered, and, where the frames allow it,
 * cancels abort their handler and legal races stay silent.
 */
export function judgeRogue(run: RogueRunResult): RogueVerdict {
  const sdk = run.target;
  const trace = run.trace;
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const report = (f: Finding) => {
    const k = `${f.invariant}|${f.request ?? ''}|${f.message}`;
    if (!seen.has(k)) (seen.add(k), findings.push(f));
  };

  /** Requests the SDK received from the rogue, by id key. */
  const received = new Map<string, { responses: number; cancelledOpen: boolean }>();
  /** Handlers running on the SDK side, by id key (a count: a reused id may run twice). */
  const running = new Map<string, number>();
  /** Cancels that should abort a running handler: id key → trace index of the delivery. */
  const abortDue = new Map<string, number>();
  /** The SDK's own requests: id key → progress token key, whether it cancelled, its call label. */
  const sent = new Map<string, { token?: string; cancelled: boolean; call?: string; settled: boolean }>();
  const callIds = new Map<string, string>();
  let step = -1;
  let delivered: JsonValue[] = [];
  let stepErrors = 0;
  let lastIndex = 0;

  const endOfStep = () => {
    // An error callback is fine for a forbidden frame, but a legal race must stay silent.
    if (stepErrors === 0) return;
    for (const f of delivered) {
      if (isResponse(f)) {
        const req = sent.get(key(f.id));
        if (req?.cancelled) {
          report(finding('cancel.late-response-silent', lastIndex, `the ${sdk} raised an error callback for a response to its request ${key(f.id)}, which arrived after it cancelled that request`, `${sdk}:${key(f.id)}`));
        }
      } else if (isObj(f) && f.method === 'notifications/progress') {
        const token = key(paramsOf(f).progressToken);
        const req = [...sent.values()].find((r) => r.token === token);
        if (req && (req.settled || req.cancelled)) {
          report(finding('progress.race-silent', lastIndex, `the ${sdk} raised an error callback for a late progress (token ${token}) of a request that had already settled`, req.call));
        }
      }
    }
  };

  for (const e of trace) {
    if (e.step !== step) {
      endOfStep();
      step = e.step;
      delivered = [];
      stepErrors = 0;
    }
    lastIndex = e.i;
    switch (e.kind) {
      case 'deliver': {
        if (e.to !== sdk) break;
        delivered.push(e.frame);
        const f = e.frame;
        if (isRequest(f)) {
          received.set(key(f.id), { responses: 0, cancelledOpen: false });
        } else if (isObj(f) && f.method === 'notifications/cancelled' && isObj(f.params) && 'requestId' in f.params) {
          const id = key(f.params.requestId);
          const req = received.get(id);
          if (req && req.responses === 0) req.cancelledOpen = true;
          if ((running.get(id) ?? 0) > 0) abortDue.set(id, e.i);
        }
        break;
      }
      case 'send': {
        if (e.from !== sdk) break;
        const f = e.frame;
        if (isRequest(f)) {
          const meta = isObj(paramsOf(f)._meta) ? (paramsOf(f)._meta as Obj) : {};
          const call = [...callIds].find(([, id]) => id === key(f.id))?.[0];
          sent.set(key(f.id), { ...('progressToken' in meta && { token: key(meta.progressToken) }), cancelled: false, settled: false, ...(call && { call }) });
        } else if (isObj(f) && f.method === 'notifications/cancelled') {
          const req = sent.get(key(paramsOf(f).requestId));
          if (req) req.cancelled = true;
        } else if (isResponse(f)) {
          judgeResponse(f, e);
        }
        break;
      }
      case 'handler-start':
        if (e.side === sdk) running.set(key(e.id), (running.get(key(e.id)) ?? 0) + 1);
        break;
      case 'handler-end':
        if (e.side === sdk) running.set(key(e.id), (running.get(key(e.id)) ?? 1) - 1);
        break;
      case 'handler-abort':
        if (e.side === sdk) abortDue.delete(key(e.id));
        break;
      case 'onerror':
        if (e.side === sdk) stepErrors++;
        break;
      case 'call-start':
        if (e.id !== undefined) callIds.set(e.call, key(e.id));
        break;
      case 'call-settle': {
        const id = callIds.get(e.call);
        const req = id !== undefined ? sent.get(id) : undefined;
        if (req) req.settled = true;
        if (e.outcome === 'resolved' && id !== undefined) {
          const responses = delivered.filter(isResponse);
          if (responses.length > 0 && !responses.some((r) => key(r.id) === id)) {
            report(finding('rpc.response-matches-request', e.i, `the ${sdk} resolved its request ${id} with a response whose id is ${responses.map((r) => key(r.id)).join(', ')}: JSON-RPC ids of different types or values must not match`, e.call));
          }
        }
        break;
      }
      case 'onprogress': {
        const id = callIds.get(e.call);
        const token = id !== undefined ? sent.get(id)?.token : undefined;
        const progressFrames = delivered.filter((f): f is Obj => isObj(f) && f.method === 'notifications/progress');
        if (token !== undefined && progressFrames.length > 0 && !progressFrames.some((f) => key(paramsOf(f).progressToken) === token)) {
          report(finding('progress.token-requested', e.i, `the ${sdk} passed a progress with token ${progressFrames.map((f) => key(paramsOf(f).progressToken)).join(', ')} to the onprogress of its request with token ${token}`, e.call));
        }
        break;
      }
      case 'escape':
        report(finding('harness.unhandled', e.i, `an ${e.source} escaped the ${sdk} during the rogue run: ${short(e.error, 200)}`));
        break;
      case 'close':
        if (e.side === sdk) report(finding('cancel.race-graceful', e.i, `the ${sdk}'s connection closed during the rogue run: the session is dead`));
        break;
    }
  }
  endOfStep();

  for (const [id, at] of abortDue) {
    report(finding('cancel.handler-aborted', at, `a cancel for the ${sdk}'s in-flight request ${id} did not abort its handler`, `${sdk}:${id}`));
  }
  if (!run.followUp.ok) {
    report(finding('cancel.race-graceful', trace.length - 1, `the session is not usable after the rogue frames: ${run.followUp.reason}`));
  }

  function judgeResponse(f: Obj, e: TraceEvent) {
    const id = key(f.id);
    const req = received.get(id);
    if (req) {
      if (req.responses > 0) report(finding('rpc.single-response', e.i, `the ${sdk} sent a second response for request ${id}`, `${sdk}:${id}`));
      else if (req.cancelledOpen) report(finding('cancel.no-response-after', e.i, `the ${sdk} answered request ${id} after it received its cancellation`, `${sdk}:${id}`));
      req.responses++;
      return;
    }
    const cause = delivered.length > 0 && delivered.every(isNotification);
    if (cause) {
      report(finding('rpc.no-reply-to-notification', e.i, `the ${sdk} sent a response (id ${id}) in reply to a notification`, `${sdk}:${id}`));
      return;
    }
    // JSON-RPC answers a frame it cannot read with an error whose id is null; nothing else may answer a non-request.
    const invalidRequestReply = (f.id === null || !('id' in f)) && 'error' in f && !delivered.some(isResponse);
    if (!invalidRequestReply) {
      report(finding('rpc.response-matches-request', e.i, `the ${sdk} sent a response with id ${id}, but never received a request with that id`, `${sdk}:${id}`));
    }
  }

  return { ...summarize(run), findings };
}

/** The attack window's effects, for the behaviour table. */
function summarize(run: RogueRunResult): Omit<RogueVerdict, 'findings'> {
  const sdk = run.target;
  const effects: string[] = [];
  const errorCodes: number[] = [];
  const abortedIds: string[] = [];
  const flags = new Set<RogueReaction>();
  for (const e of run.trace.slice(run.attack.start, run.attack.end)) {
    switch (e.kind) {
      case 'escape':
        flags.add('crash');
        effects.push(`escape ${e.source}: ${short(e.error)}`);
        break;
      case 'close':
        if (e.side === sdk) (flags.add('closed'), effects.push('connection closed'));
        break;
      case 'send': {
        if (e.from !== sdk) break;
        const f = e.frame;
        if (isResponse(f) && isObj(f.error)) {
          flags.add('error-response');
          const code = typeof f.error.code === 'number' ? f.error.code : NaN;
          errorCodes.push(code);
          effects.push(`error ${code} (id ${key(f.id)}): ${short(String(f.error.message), 60)}`);
        } else if (isResponse(f)) {
          flags.add('result');
          effects.push(`result (id ${key(f.id)})`);
        } else if (isObj(f) && typeof f.method === 'string') {
          flags.add('handled');
          effects.push(`sent ${f.method}`);
        }
        break;
      }
      case 'drop':
        if (e.to === sdk) effects.push('frame dropped (connection closed)');
        break;
      case 'onerror':
        if (e.side === sdk) (flags.add('onerror'), effects.push(`onerror: ${short(e.message.replace(/\s+/g, ' '))}`));
        break;
      case 'handler-start':
        if (e.side === sdk) (flags.add('handled'), effects.push(`handler ${e.method} started (id ${key(e.id)})`));
        break;
      case 'handler-abort':
        if (e.side === sdk) (flags.add('handled'), abortedIds.push(key(e.id)), effects.push(`handler aborted (id ${key(e.id)})`));
        break;
      case 'onprogress':
        flags.add('handled');
        effects.push(`onprogress ${e.progress}${e.total !== undefined ? `/${e.total}` : ''}`);
        break;
      case 'call-settle':
        flags.add('handled');
        effects.push(`call ${e.call} ${e.outcome}${e.code !== undefined ? ` (${e.code})` : ''}`);
        break;
    }
  }
  const order: RogueReaction[] = ['crash', 'closed', 'error-response', 'result', 'onerror', 'handled'];
  const reaction = order.find((r) => flags.has(r)) ?? 'ignored';
  return { reaction, effects, errorCodes, abortedIds };
}
