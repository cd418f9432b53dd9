import type { Side } from '../../sim/scenario.ts';
import { finding } from '../finding.ts';
import { classifyFrame, type Classified } from '../../util/jsonrpc.ts';
import type { Subjects } from '../finding.ts';
import { idKey, other, show } from '../ids.ts';
import { handlerOf } from '../records.ts';
import type { Obligation, RuleFactory, Walk } from '../rule.ts';
import type { TraceEvent, WireId } from '../../sim/trace.ts';
import { callSubjects, receiverSubjects, requesterSubjects, withAbortingSignal } from '../subjects.ts';
import { underTestOf } from '../clock.ts';

/**
 * A handler of the old connection that sends a downstream request on the new one: a clause of
 * `lifecycle.reconnect-isolation` of its own, apart from the stray cancels SDK 1.32.2 is known for.
 */
export const RECONNECT_HANDLER_REQUEST = 'handler-request';

/** `side` learnt that `conn` closed: by the end of the step its calls rejected and its handlers aborted. */
class CloseDue implements Obligation {
  constructor(
    readonly side: Side,
    readonly conn: number,
    readonly at: number,
  ) {}

  check(walk: Walk): void {
    const { side, conn, at } = this;
    const within = walk.clock.kind === 'real' ? ` within ${walk.clock.inFlightMs} ms` : '';
    // The closing side's conduct (`subjects.side`). On a real clock mcp-sim's own side's calls are
    // the harness's (it gives them up itself): only the side under test's are judged.
    for (const call of walk.clock.kind === 'real' && side !== underTestOf(walk.clock) ? [] : walk.calls()) {
      if (call.from === side && (call.req?.conn ?? call.conn) === conn && !call.settled) {
        walk.flag(finding('lifecycle.close-settles', at, `connection ${conn} closed at the ${side} but call ${call.call} did not reject${within}.`, call.call, { ...callSubjects(walk, call), side }));
      }
    }
    for (const rec of walk.receivers()) {
      if (rec.side === side && rec.conn === conn && handlerOf(rec) === 'running') {
        walk.flag(
          finding('lifecycle.close-settles', at, `connection ${conn} closed at the ${side} but the handler of request ${show(rec.id)} was not aborted${within}.`, walk.receivedLabel(rec), { ...receiverSubjects(walk, rec), side }),
        );
      }
    }
  }
}

/** Where the client's handshake of one connection stands, by what it sent. */
type InitStage = 'fresh' | 'initializing' | 'initialized';

/** Requests a client may send before its handshake is done (spec: pings). */
const allowedBeforeInit: ReadonlySet<string> = new Set(['initialize', 'ping']);

/**
 * `lifecycle.init-first`: initialization is the first interaction of every connection. On each
 * connection (a reconnect is a new one) the client's first request is `initialize`, and it sends
 * no request but pings until it sent `notifications/initialized`, which it has sent by the time
 * its `connect()` resolves (`ready`). Frames of a caller's raw HTTP
 * POST (`http-post`) are the caller's, not the SDK client's, and are not judged.
 */
class InitOrder {
  private readonly stage = new Map<number, InitStage>();
  private readonly rawSeqs = new Set<number>();

  constructor(private readonly walk: Walk) {}

  trace(e: TraceEvent): void {
    if (e.kind === 'http-request' && e.at === 'client' && e.raw) for (const s of e.seqs) this.rawSeqs.add(s);
    // `connect()` resolved: the client holds the connection for initialized, so its handshake must be on the wire.
    if (e.kind === 'ready' && e.error === undefined && this.stage.get(e.conn) !== 'initialized') {
      const missing = this.stage.has(e.conn) ? 'notifications/initialized' : 'initialize';
      this.walk.flag(
        finding('lifecycle.init-first', e.i, `the client's connect() on connection ${e.conn} resolved, but it never sent ${missing} on that connection.`, `client:${e.conn}`, {
          side: 'client',
          conn: e.conn,
          client: this.walk.clientOf(e.conn),
        }),
      );
    }
  }

  sent(e: Extract<TraceEvent, { kind: 'send' }>, frame: Classified): void {
    if (e.from !== 'client' || this.rawSeqs.has(e.seq)) return;
    const stage = this.stage.get(e.conn) ?? 'fresh';
    if (frame.type === 'notification' && frame.method === 'notifications/initialized') {
      this.stage.set(e.conn, 'initialized');
      return;
    }
    if (frame.type !== 'request') return;
    if (frame.method === 'initialize' && stage === 'fresh') {
      this.stage.set(e.conn, 'initializing');
      return;
    }
    if (stage === 'initialized' || allowedBeforeInit.has(frame.method)) return;
    const why = stage === 'fresh' ? 'its first request on that connection, with no initialize before it' : 'before it sent notifications/initialized';
    // The frame is told before its request is recorded: name it by the call that started it.
    const call = [...this.walk.calls()].find((c) => c.from === 'client' && c.conn === e.conn && c.id === frame.id && !c.req);
    const label = call?.call ?? `client:${show(frame.id)}`;
    this.walk.flag(
      finding('lifecycle.init-first', e.i, `the client sent ${frame.method} (${label}) on connection ${e.conn} ${why}.`, `client:${e.conn}`, {
        side: 'client',
        conn: e.conn,
        client: this.walk.clientOf(e.conn),
      }),
    );
  }
}

/**
 * The subjects of a frame sent after its connection closed: the sending side, and for a response
 * the request it answers (sent by the peer), so that a response a handler sent because nothing
 * aborted it links to why nothing did (`attribution.ts`).
 */
function sentAfterClose(from: Side, conn: number, frame: Classified): Subjects {
  if (frame.type !== 'response') return { side: from, conn };
  return { side: from, conn, sender: other(from), ids: [idKey(frame.id)] };
}

/**
 * `lifecycle.*`: on close every pending call rejects, every handler aborts and nothing more is
 * sent on that connection (no response, no progress, no frame at all); each side observes its
 * close once (a transport that closed unobserved by its side is zero times); a cancel never
 * crosses to a newer connection.
 */
export const lifecycleRule: RuleFactory = (walk) => {
  /** `side:conn` pairs whose SDK observed the close (its `onclose`). */
  const sdkClosed = new Set<string>();
  const init = new InitOrder(walk);
  /** The handler whose downstream-call step each side ran last: the request the side sends in that step is that handler's. */
  const calling = new Map<Side, { readonly step: number; readonly conn: number; readonly id: WireId }>();
  return {
    trace(e) {
      init.trace(e);
      if (e.kind === 'handler-step' && e.op.kind === 'call') calling.set(e.side, { step: e.step, conn: e.conn, id: e.id });
      if (e.kind === 'close') sdkClosed.add(`${e.side}:${e.conn}`);
      if (e.kind === 'send-failed' && sdkClosed.has(`${e.from}:${e.conn}`)) {
        const subjects = { ...sentAfterClose(e.from, e.conn, classifyFrame(e.frame)), client: walk.clientOf(e.conn) };
        walk.flag(finding('lifecycle.close-settles', e.i, `${e.from} tried to send on connection ${e.conn} after it observed that connection close.`, `${e.from}:${e.conn}`, subjects));
      }
    },

    frameSent({ e, frame }) {
      init.sent(e, frame);
      if (!sdkClosed.has(`${e.from}:${e.conn}`)) return;
      const subjects = { ...sentAfterClose(e.from, e.conn, frame), client: walk.clientOf(e.conn) };
      walk.flag(finding('lifecycle.close-settles', e.i, `the ${e.from} sent on connection ${e.conn} after it observed that connection close.`, `${e.from}:${e.conn}`, subjects));
    },

    requestSent({ e, rec }) {
      const h = calling.get(e.from);
      if (!h || h.step !== e.step || h.conn === e.conn) return;
      const f = finding(
        'lifecycle.reconnect-isolation',
        e.i,
        `the ${e.from}'s handler of request ${show(h.id)} of connection ${h.conn} sent ${rec.method} (${walk.label(rec)}) on connection ${e.conn}.`,
        walk.label(rec),
        { side: e.from, conn: e.conn, client: walk.clientOf(e.conn) },
      );
      walk.flag({ ...f, clause: RECONNECT_HANDLER_REQUEST });
    },

    cancelSent({ e, rec }) {
      if (!rec || rec.conn === e.conn) return;
      const subjects = withAbortingSignal(walk, requesterSubjects(walk, rec), rec, e.step);
      walk.flag(finding('lifecycle.reconnect-isolation', e.i, `the ${e.from} sent the cancel of ${walk.label(rec)}, a request of connection ${rec.conn}, on connection ${e.conn}.`, walk.label(rec), subjects));
    },

    refused(o) {
      if (o.machine === 'session' && (o.event === 'CLOSE_CLIENT' || o.event === 'CLOSE_SERVER')) {
        const side = o.event === 'CLOSE_CLIENT' ? 'client' : 'server';
        walk.flag(finding('lifecycle.close-once', o.e.i, `the ${side} observed the close of connection ${o.conn} more than once.`, `${side}:${o.conn}`));
      }
      if (o.machine !== 'receiver' || o.wire !== 'closed') return;
      const { rec } = o;
      if (o.event === 'RESPOND') {
        walk.flag(finding('lifecycle.close-settles', o.e.i, `the ${rec.side} answered request ${show(rec.id)} after its connection closed.`, walk.receivedLabel(rec), { ...receiverSubjects(walk, rec), side: rec.side }));
      } else if (o.event === 'PROGRESS') {
        walk.flag(finding('lifecycle.close-settles', o.e.i, `the ${rec.side} sent progress for ${walk.receivedLabel(rec)} after its connection closed.`, walk.receivedLabel(rec), { ...receiverSubjects(walk, rec), side: rec.side }));
      }
    },

    connectionClosed({ e, side, conn }) {
      walk.oblige(new CloseDue(side, conn, e.i));
    },

    // Zero observations break close-once too: a transport that closed without telling its side
    // leaves that side's calls pending and handlers running with nothing to end them.
    finish({ at, endState }) {
      for (const t of endState?.transports ?? []) {
        if (!t.closed || sdkClosed.has(`${t.side}:${t.conn}`)) continue;
        walk.flag(finding('lifecycle.close-once', at, `the ${t.side}'s transport of connection ${t.conn} closed, but the ${t.side} never observed the close.`, `${t.side}:${t.conn}`, { side: t.side, conn: t.conn, client: walk.clientOf(t.conn) }));
      }
    },
  };
};
