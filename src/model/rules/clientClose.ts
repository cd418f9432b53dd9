import { underTestOf } from '../clock.ts';
import { finding } from '../finding.ts';
import type { Obligation, RuleFactory, Walk } from '../rule.ts';

/** What the server has seen of the client's close so far: its input ended (stdio), its session deleted (HTTP). */
interface ServerSaw {
  http: boolean;
  inputEnded: boolean;
  sessionDeleted: boolean;
}

/** The client's close completed: by the in-flight bound its server must have seen it end the connection. */
class EndDue implements Obligation {
  constructor(
    readonly saw: ServerSaw,
    readonly at: number,
    readonly t: number,
  ) {}

  check(walk: Walk): void {
    const bound = walk.clock.kind === 'real' ? walk.clock.inFlightMs : 0;
    if (this.saw.http && !this.saw.sessionDeleted) {
      walk.flag(finding('http.close-deletes-session', this.at, `the client's close returned at ${Math.round(this.t)} ms, but no HTTP DELETE of its session reached the server within ${bound} ms: the session is left to the server to expire.`, undefined, { side: 'client' }));
    } else if (!this.saw.http && !this.saw.inputEnded) {
      walk.flag(finding('lifecycle.stdio-close-ends-server', this.at, `the client's close returned at ${Math.round(this.t)} ms, but its stdio server's input was still open ${bound} ms later (and it was not signalled): the close left the server running until the client process exited.`, undefined, { side: 'client' }));
    }
  }
}

/**
 * What a client's close owes its server (basic/lifecycle#shutdown, basic/transports#session-management):
 * over stdio the server's input ends, or the server is signalled (`lifecycle.stdio-close-ends-server`);
 * over Streamable HTTP the client deletes its session (`http.close-deletes-session`); both by the
 * in-flight bound after the client's close completed (its `close` event). Judged on a real clock
 * with the client under test only: the near side's log is the server's (its stdin EOF, or the
 * signal it got, is its `eof`; a DELETE is an `http-request` it received). The simulator runs no
 * stdio process, and the SDKs' Streamable HTTP clients leave the DELETE to a call of its own
 * (`terminateSession()`), which its scripted callers do not make.
 */
export const clientCloseRule: RuleFactory = (walk) => {
  const judged = walk.clock.kind === 'real' && underTestOf(walk.clock) === 'client';
  const saw: ServerSaw = { http: false, inputEnded: false, sessionDeleted: false };
  let obliged = false;
  return {
    trace(e) {
      if (!judged) return;
      if (e.kind === 'http-request') {
        saw.http = true;
        if (e.at === 'server' && e.method === 'DELETE') saw.sessionDeleted = true;
      }
      if (e.kind === 'eof' && e.to === 'server') saw.inputEnded = true;
      if (e.kind !== 'close' || e.side !== 'client' || obliged) return;
      obliged = true;
      if (!(saw.http ? saw.sessionDeleted : saw.inputEnded)) walk.oblige(new EndDue(saw, e.i, e.t));
    },
  };
};
