import type { Side } from '../../sim/scenario.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { finding } from '../finding.ts';
import { idKey, isValidId, other, show } from '../ids.ts';
import { definesMethod, knownRevisions } from '../protocolMethods.ts';
import type { RuleFactory } from '../rule.ts';

/** The JSON-RPC 2.0 error codes (section 5.1) a request a side cannot take is answered with, by name. */
const CODE_NAMES: Readonly<Record<number, string>> = { [-32700]: 'parse error', [-32600]: 'invalid request', [-32601]: 'method not found', [-32602]: 'invalid params' };

/** What a frame that cannot be taken must be answered with: the codes that say why, and the id the answer carries. */
export interface OwedError {
  /** Every code that is right (`-32600` or `-32602` for params that are no object, say). */
  readonly codes: readonly number[];
  /** The id the answer names: the request's own, or `null` when it has none the receiver could read (also accepted for `-32600`). */
  readonly id: JsonValue;
  /** What is wrong with the frame, in words. */
  readonly why: string;
}

/** A method some protocol revision defines as a request `sender` may send (notifications are not requests). */
function definesRequest(sender: Side, method: string): boolean {
  return !method.startsWith('notifications/') && knownRevisions.some((r) => definesMethod(r, sender, method));
}

/**
 * The error a frame `sender` wrote is owed, if it is one JSON-RPC 2.0 answers with an error code
 * (section 5.1): a string frame (a line that is not JSON, or a bare JSON string: the trace does
 * not tell them apart, so `-32700` and `-32600` are both right), a value that is no object, an
 * object that is no request, notification or response, a request whose `jsonrpc` is not "2.0"
 * or whose params are no object, a request of a method no revision defines as a request of its
 * sender, and MCP's `tools/call` without a tool name. Not judged: a notification however
 * malformed (never answered: `rpc.no-reply-to-notification`), a response, a batch (MCP removed
 * them; no code is prescribed), an id of the wrong type (`rpc.request-id-type` is the sender's).
 */
export function owedError(frame: JsonValue, sender: Side): OwedError | undefined {
  if (typeof frame === 'string') return { codes: [-32700, -32600], id: null, why: 'a line that is not a JSON-RPC object' };
  if (frame === null || typeof frame !== 'object') return { codes: [-32600], id: null, why: `${show(frame)}, not a request object` };
  if (Array.isArray(frame)) return undefined;
  const id = 'id' in frame && isValidId(frame.id) ? (frame.id as JsonValue) : null;
  if (typeof frame.method !== 'string') {
    if ('result' in frame || 'error' in frame) return undefined;
    return { codes: [-32600], id, why: 'method' in frame ? 'a request whose method is not a string' : 'an object with no method' };
  }
  if (!('id' in frame) || !isValidId(frame.id)) return undefined;
  if (frame.jsonrpc !== '2.0') return { codes: [-32600], id, why: `a request whose jsonrpc is ${show(frame.jsonrpc ?? null)}, not "2.0"` };
  if ('params' in frame && !isJsonObject(frame.params)) return { codes: [-32600, -32602], id, why: `a request whose params are ${show(frame.params)}, no object` };
  if (!definesRequest(sender, frame.method)) return { codes: [-32601], id, why: `a request of method ${show(frame.method)}, which no protocol revision defines as a request of the ${sender}` };
  if (frame.method === 'tools/call' && !(isJsonObject(frame.params) && typeof frame.params.name === 'string')) return { codes: [-32602], id, why: 'a tools/call without a tool name' };
  return undefined;
}

/** A frame owed an error, not answered yet. */
interface Owed extends OwedError {
  /** The side that must answer it. */
  readonly side: Side;
  readonly conn: number;
  /** Trace index of its delivery. */
  readonly at: number;
  readonly seq: number;
}

const want = (codes: readonly number[]) => codes.map((c) => `${c} (${CODE_NAMES[c]})`).join(' or ');

/**
 * `rpc.error-code`: a frame a side cannot take (`owedError`) is answered with an error whose code
 * says why, and whose id is the request's (or null, which `-32600` also allows, as JSON-RPC does
 * for an id it could not read). Judged at the answer, the first response of that side on that
 * connection naming the id; a frame still unanswered at the end of the run was never answered.
 * A frame whose Streamable HTTP POST was refused with an HTTP error is answered by that status
 * (`http.rejects-bad-input` judges it). On a real clock only the server's answers are judged: the
 * client is mcp-sim's own.
 */
export const errorCodesRule: RuleFactory = (walk) => {
  const owed: Owed[] = [];
  /** Client frame seqs by the HTTP exchange that carried them. */
  const seqsOf = new Map<number, readonly number[]>();
  const matches = (o: Owed, id: unknown): boolean => (id === undefined || id === null ? o.id === null || o.codes.includes(-32600) : o.id !== null && idKey(o.id) === idKey(id));
  return {
    trace(e) {
      if (e.kind === 'http-request' && e.at === 'client') seqsOf.set(e.exchange, e.seqs);
      if (e.kind === 'http-response' && e.status >= 400) {
        const refused = new Set(seqsOf.get(e.exchange) ?? []);
        for (let k = owed.length - 1; k >= 0; k--) if (refused.has(owed[k]!.seq)) owed.splice(k, 1);
      }
      if (e.kind !== 'deliver' || (walk.clock.kind === 'real' && e.to !== 'server')) return;
      const o = owedError(e.frame, other(e.to));
      if (o) owed.push({ ...o, side: e.to, conn: e.conn, at: e.i, seq: e.seq });
    },

    frameSent({ e, frame }) {
      if (frame.type !== 'response') return;
      const k = owed.findIndex((o) => o.side === e.from && o.conn === e.conn && matches(o, frame.id));
      if (k === -1) return;
      const [o] = owed.splice(k, 1) as [Owed];
      const error = isJsonObject(e.frame) && isJsonObject(e.frame.error) ? e.frame.error : undefined;
      if (error && typeof error.code === 'number' && o.codes.includes(error.code)) return;
      const got = error ? `error ${show(error.code ?? null)}` : 'a result';
      walk.flag(
        finding('rpc.error-code', e.i, `the ${e.from} answered ${o.why} (id ${show(o.id)}) with ${got}, not ${want(o.codes)}.`, `${e.from}:${e.conn}`, { side: e.from, conn: e.conn }),
        false,
      );
    },

    finish() {
      for (const o of owed.splice(0)) {
        walk.flag(finding('rpc.error-code', o.at, `the ${o.side} never answered ${o.why} (id ${show(o.id)}); JSON-RPC answers it with ${want(o.codes)}.`, `${o.side}:${o.conn}`, { side: o.side, conn: o.conn }), false);
      }
    },
  };
};
