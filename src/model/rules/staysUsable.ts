import type { Side } from '../../sim/scenario.ts';
import { classifyFrame } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { idKey, other, show } from '../ids.ts';
import type { Obligation, RuleFactory } from '../rule.ts';

/** A ping one side sent (or tried to), and what became of it. */
interface Ping {
  readonly from: Side;
  readonly conn: number;
  readonly id: unknown;
  readonly sentI: number;
  readonly sentT: number;
  readonly seq: number;
  answered: boolean;
  flagged: boolean;
}

/** Virtual clock: a ping reached its receiver, whose answer is due by the end of the step. */
class PingDue implements Obligation {
  constructor(
    readonly ping: Ping,
    readonly at: number,
    private readonly flag: (ping: Ping, at: number, what: (to: Side, ping: string) => string) => void,
  ) {}

  check(): void {
    this.flag(this.ping, this.at, (to, ping) => `the ${to} never answered ${ping}`);
  }
}

/**
 * `rpc.survives-bad-input`: whatever frames its peer wrote, a side stays usable, and the ping is
 * how a run asks (the spec: a ping's receiver MUST answer it promptly). A rogue peer sends one
 * after its frames; black-box clients send them as barriers. A ping sent on a connection is
 * answered by the side it went to, unless its sender closed the connection first. Broken when:
 *
 * - virtual clock: the ping reached its receiver and the step ended without the answer;
 * - the ping could not reach its receiver: dropped because the receiver had closed its end, or
 *   never written because the connection was gone (`send-failed`) though its sender had not
 *   closed it, or (Streamable HTTP) its POST refused with an HTTP error on a live session (one
 *   the server gave and the client did not delete; a POST without a session on a server that
 *   runs sessions is `http.session-required-400`'s);
 * - real clock, on evidence only (slow is not stuck): the server process exited after the ping
 *   was written, or the ping went unanswered for the clock's hang bound before the run's teardown.
 *
 * The finding's `subjects.side` is the side that is no longer usable.
 */
export const staysUsableRule: RuleFactory = (walk) => {
  const pings = new Map<string, Ping>();
  const keyOf = (from: Side, conn: number, id: unknown) => `${from}:${conn}:${idKey(id)}`;
  /** Per connection, the side whose close came first. */
  const firstCloser = new Map<number, Side>();
  /** HTTP: client frame seq → its exchange, each exchange's session, the sessions given and deleted. */
  const exchangeOf = new Map<number, number>();
  const requestOf = new Map<number, { readonly method: string; readonly session: string | undefined }>();
  const given = new Set<string>();
  const deleted = new Set<string>();
  /** Real clock: when the client's teardown (stdin EOF, DELETE) began. */
  let teardownT: number | undefined;
  const live = (session: string | undefined) => (session === undefined ? given.size === 0 : given.has(session) && !deleted.has(session));
  const flag = (ping: Ping, at: number, what: (to: Side, ping: string) => string) => {
    if (ping.flagged || ping.answered) return;
    ping.flagged = true;
    const to = other(ping.from);
    const sentence = what(to, `the ping (id ${show(ping.id)}) the ${ping.from} sent on connection ${ping.conn}`);
    walk.flag(finding('rpc.survives-bad-input', at, `${sentence}: it is not usable after what its peer wrote.`, `${to}:${ping.conn}`, { side: to, conn: ping.conn }), false);
  };
  /**
   * On a real clock only the pings the client sent are judged: a black-box run of a server judges
   * the server's usability; mcp-sim's own scripted server (a client's run) is the harness.
   */
  const judged = (from: Side) => walk.clock.kind === 'virtual' || from === 'client';
  const pingOf = (frame: unknown) => {
    const c = classifyFrame(frame);
    return c.type === 'request' && c.method === 'ping' ? c : undefined;
  };
  return {
    requestSent({ e, rec }) {
      if (rec.method !== 'ping' || !judged(e.from)) return;
      pings.set(keyOf(e.from, e.conn, rec.id), { from: e.from, conn: e.conn, id: rec.id, sentI: e.i, sentT: e.t, seq: e.seq, answered: false, flagged: false });
    },

    frameSent({ e, frame }) {
      if (frame.type !== 'response') return;
      const ping = pings.get(keyOf(other(e.from), e.conn, frame.id));
      if (ping) ping.answered = true;
    },

    trace(e) {
      switch (e.kind) {
        case 'close':
          if (!firstCloser.has(e.conn)) firstCloser.set(e.conn, e.side);
          return;
        case 'eof':
          if (e.to === 'server') teardownT ??= e.t;
          return;
        case 'deliver': {
          const c = pingOf(e.frame);
          const ping = c && pings.get(keyOf(other(e.to), e.conn, c.id));
          if (ping && walk.clock.kind === 'virtual') walk.oblige(new PingDue(ping, e.i, flag));
          return;
        }
        case 'drop': {
          const c = pingOf(e.frame);
          const ping = c && pings.get(keyOf(other(e.to), e.conn, c.id));
          if (ping && firstCloser.get(e.conn) !== ping.from) flag(ping, e.i, (to, p) => `the ${to} had closed its end of the connection before ${p} reached it`);
          return;
        }
        case 'send-failed': {
          const c = pingOf(e.frame);
          if (!c || !judged(e.from) || firstCloser.get(e.conn) === e.from || (walk.clock.kind === 'real' && teardownT !== undefined)) return;
          const ping: Ping = { from: e.from, conn: e.conn, id: c.id, sentI: e.i, sentT: e.t, seq: -1, answered: false, flagged: false };
          pings.set(keyOf(e.from, e.conn, c.id), ping);
          flag(ping, e.i, (to, p) => `the ${to} was gone (${e.error}), so ${p} never reached it`);
          return;
        }
        case 'http-request':
          if (e.at !== 'client') return;
          requestOf.set(e.exchange, { method: e.method, session: e.session });
          for (const q of e.seqs) exchangeOf.set(q, e.exchange);
          if (e.method === 'DELETE') teardownT ??= e.t;
          return;
        case 'http-response': {
          if (e.at !== 'client') return;
          if (e.session !== undefined) given.add(e.session);
          const req = requestOf.get(e.exchange);
          if (req?.method === 'DELETE' && req.session !== undefined && e.status < 300) deleted.add(req.session);
          if (e.status < 400 || !req || !live(req.session)) return;
          for (const ping of pings.values()) if (exchangeOf.get(ping.seq) === e.exchange) flag(ping, e.i, (to, p) => `the ${to} refused ${p} with HTTP ${e.status}`);
          return;
        }
        case 'exit':
          if (walk.clock.kind === 'real' && teardownT === undefined) for (const ping of pings.values()) flag(ping, e.i, (to, p) => `the ${to} process exited before it answered ${p}`);
          return;
        default:
          return;
      }
    },

    finish({ at, t }) {
      const clock = walk.clock;
      if (clock.kind !== 'real') return;
      const until = Math.min(teardownT ?? t, t);
      for (const ping of pings.values()) {
        const silent = Math.round(until - ping.sentT);
        if (silent >= clock.hangAfterMs) flag(ping, at, (to, p) => `the ${to} left ${p} unanswered for ${silent} ms (bound --hang-after ${clock.hangAfterMs} ms)`);
      }
    },
  };
};
