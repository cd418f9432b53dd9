import type { Side } from '../sim/scenario.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject, isResponseFrame } from '../util/jsonrpc.ts';

/**
 * What the attacked SDK endpoint did with a rogue kind's frames, the strongest effect first: an
 * escape (`crash`), its connection closing (`closed`), an error response, a result, only an
 * `onerror` callback, some other visible effect (`handled`: a handler ran or aborted,
 * `onprogress`, a call settled), or nothing at all (`ignored`). A description for the behaviour
 * table, not a verdict: whether the reaction breaks a rule is the model's to say (`judge()`).
 */
export type RogueReaction = 'crash' | 'closed' | 'error-response' | 'result' | 'onerror' | 'handled' | 'ignored';

export interface RogueReactionSummary {
  readonly reaction: RogueReaction;
  /** Every effect seen during the attack, in order, one short phrase each. */
  readonly effects: readonly string[];
  /** Codes of the error responses the SDK sent during the attack. */
  readonly errorCodes: readonly number[];
}

const short = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n)}…` : s);
/** Type-strict id as the table shows it: `1` and `"1"` differ. */
const key = (id: JsonValue | undefined): string => (id === undefined ? 'undefined' : JSON.stringify(id));

/** What `sdk` did during the attack window `events` of a rogue run. */
export function describeReaction(events: readonly TraceEvent[], sdk: Side): RogueReactionSummary {
  const effects: string[] = [];
  const errorCodes: number[] = [];
  const flags = new Set<RogueReaction>();
  for (const e of events) {
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
        if (isResponseFrame(f) && isJsonObject(f.error)) {
          flags.add('error-response');
          const code = typeof f.error.code === 'number' ? f.error.code : NaN;
          errorCodes.push(code);
          effects.push(`error ${code} (id ${key(f.id as JsonValue)}): ${short(String(f.error.message), 60)}`);
        } else if (isResponseFrame(f)) {
          flags.add('result');
          effects.push(`result (id ${key(f.id as JsonValue)})`);
        } else if (isJsonObject(f) && typeof f.method === 'string') {
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
        if (e.side === sdk) (flags.add('handled'), effects.push(`handler aborted (id ${key(e.id)})`));
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
  return { reaction: order.find((r) => flags.has(r)) ?? 'ignored', effects, errorCodes };
}
