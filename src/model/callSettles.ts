import type { TraceEvent } from '../sim/trace.ts';
import { silenceBoundMs, type RealClock } from './clock.ts';
import { finding } from './finding.ts';
import { wireOf, type CallRec } from './records.ts';
import type { Walk } from './rule.ts';
import type { WalkEvent } from './walkEvent.ts';

/** What the walk saw of one client call: when it showed life, and how it ended at the client. */
interface Life {
  tool: string;
  /** Its request written, each progress read for it, its answer read: real ms. */
  readonly signs: number[];
  answeredT?: number;
  givenUp?: boolean;
}

/**
 * `liveness.call-settles` (a real clock only; `liveness.ts` calls it): a call the client neither
 * cancelled nor timed out must settle, and slow is not stuck. It is blamed on evidence only:
 * when it was silent (no progress for it, no answer) for its tool's silence bound
 * (`silenceBoundMs`: twice the longest the tool has shown it takes, never under `--hang-after`)
 * since its last sign of life, or when it was still running when the client closed the
 * connection (the teardown's stdin EOF or DELETE) and so outlived it. A tool that takes 5 s and
 * reports progress every second is neither, nor one that takes 30 s in silence once the campaign
 * has seen it take 30 s; one that goes quiet for the bound is stuck, however the run ended.
 */
export class CallSettles {
  private readonly lives = new Map<CallRec, Life>();
  /** When the client closed the connection (its stdin EOF reached the server, or it sent the session's DELETE). */
  private closeT: number | undefined;

  constructor(private readonly walk: Walk) {}

  trace(e: TraceEvent): void {
    if ((e.kind === 'eof' && e.to === 'server') || (e.kind === 'http-request' && e.at === 'client' && e.method === 'DELETE')) this.closeT ??= e.t;
  }

  requestSent({ e, params, rec }: Extract<WalkEvent, { kind: 'requestSent' }>): void {
    if (!rec.call || rec.from !== 'client') return;
    this.lives.set(rec.call, { tool: typeof params?.name === 'string' ? params.name : rec.method, signs: [e.t] });
  }

  life(call: CallRec, t: number): void {
    this.lives.get(call)?.signs.push(t);
  }

  answered(call: CallRec, t: number): void {
    const life = this.lives.get(call);
    if (!life || life.answeredT !== undefined) return;
    life.answeredT = t;
    life.signs.push(t);
  }

  givenUp(call: CallRec, _t: number): void {
    const life = this.lives.get(call);
    if (life && life.answeredT === undefined) life.givenUp = true;
  }

  finish(at: number, endT: number, clock: RealClock): void {
    for (const [call, life] of this.lives) {
      const bound = silenceBoundMs(clock, life.tool);
      const named = bound === clock.hangAfterMs ? `--hang-after ${bound} ms` : `${bound} ms, what tool ${JSON.stringify(life.tool)} has shown it takes, twice`;
      // Given up: settled with no answer read, or its cancel (a timeout's too) went out.
      const wire = call.req && wireOf(call.req);
      if (life.givenUp || wire === 'cancelled' || wire === 'lateResponse' || wire === 'timedOut') continue;
      const until = life.answeredT ?? Math.min(this.closeT ?? endT, endT);
      let last = life.signs[0]!;
      let gap = 0;
      let gapFrom = last;
      for (const t of [...life.signs.slice(1).filter((x) => x <= until), until]) {
        if (t - last > gap) {
          gap = t - last;
          gapFrom = last;
        }
        last = t;
      }
      const sent = life.signs[0]!;
      const what = `call ${call.call} (tool ${JSON.stringify(life.tool)})`;
      const progressed = life.signs.length - (life.answeredT === undefined ? 1 : 2);
      if (gap >= bound) {
        const since = gapFrom === sent ? 'since it was sent' : `since its last progress (read ${Math.round(gapFrom - sent)} ms after it was sent)`;
        const how = life.answeredT === undefined ? 'and no answer came' : `until its answer ${Math.round(life.answeredT - sent)} ms after it was sent`;
        this.walk.flag(finding('liveness.call-settles', at, `${what}, neither cancelled nor timed out by the client, was silent for ${Math.round(gap)} ms ${since} (no progress, no answer; bound ${named}) ${how}: the tool seems stuck.`, call.call));
      } else if (this.closeT !== undefined && (life.answeredT === undefined || life.answeredT >= this.closeT)) {
        this.walk.flag(finding('liveness.call-settles', at, `${what}, neither cancelled nor timed out by the client, was still running when the client closed the connection ${Math.round(this.closeT - sent)} ms after it was sent (${progressed} progress notification(s), none silent for ${named}): it outlived the client's close.`, call.call));
      }
    }
  }
}
