import { DEFAULT_PROCESS_START_MS } from '../options/defaults.ts';
import { rogueKinds, type RogueKind } from './rogueFrames.ts';
import { HANG_TOOL } from './runRogue.ts';
import { performance } from 'node:perf_hooks';
import { TraceRecorder } from '../sim/trace.ts';
import { handshake, Inbox, type Endpoint, type TargetConnection } from '../real/index.ts';
import type { InvariantId } from '../model/invariants.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';

/** One invariant judged on a rogue row: met or not, in words. */
export interface RogueVerdict {
  readonly invariant: Extract<InvariantId, 'rpc.error-code' | 'rpc.survives-bad-input'>;
  readonly met: boolean;
  readonly detail: string;
}

/** What one rogue frame did to the server process: its answer, and whether the server stayed usable. */
export interface RogueProcessRow {
  readonly kind: string;
  readonly description: string;
  /** What came back for the rogue frames with an id (or id null): `error <code>`, `result`, or `none`. */
  readonly answer: string;
  /** A `ping` after the frames was answered. */
  readonly usable: boolean;
  /** `crashed` (exited), `hung` (no answer to the ping), or `ok`. */
  readonly state: 'ok' | 'crashed' | 'hung';
  /** The catalogue's expected error code, when it has one, and whether the server gave it. */
  readonly expected?: { readonly errorCode: number; readonly met: boolean };
  /** Each invariant judged on this row (`rpc.error-code` where a JSON-RPC code applies; `rpc.survives-bad-input` always). */
  readonly verdicts: readonly RogueVerdict[];
  /** The invariants the rogue catalogue names for this kind that cannot be judged from outside. */
  readonly notJudged: readonly InvariantId[];
}

/** `rogue --stdio|--url`: the rows, and what the run could not judge (every report says so). */
export interface RogueProcessReport {
  readonly rows: readonly RogueProcessRow[];
  /** What cannot be judged from outside, in words. */
  readonly cannotJudge: readonly string[];
  /** Kinds of the catalogue not run against this target, each with why. */
  readonly leftOut: readonly { readonly kind: string; readonly why: string }[];
}

const SETTLE_MS = 300;
const PING_MS = 1_500;

/** A line that is not JSON: the one rogue frame only a raw stdio write can carry (`-32700`). */
const NOT_JSON = { name: 'not-json', description: 'a line that is not JSON (a truncated request)', text: '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"' };

const NOT_OVER_HTTP = 'over HTTP a body that is not JSON is the HTTP rogue\'s (http.rejects-bad-input)';

const NAMES: Readonly<Record<number, string>> = { [-32700]: 'parse error', [-32600]: 'invalid request', [-32601]: 'method not found', [-32602]: 'invalid params' };

/**
 * The JSON-RPC 2.0 error codes that answer each rogue kind (section 5.1 of JSON-RPC 2.0), where
 * one applies: -32600 for what is not a request object (no jsonrpc "2.0", no string method, not an
 * object), -32602 for a tools/call whose params MCP cannot take (both -32600 and -32602 are read
 * as right for params that are no object: JSON-RPC calls them an invalid request, MCP invalid
 * params). Kinds not listed (ids of the wrong type, a second initialize, notifications, batches
 * MCP removed) have no code the spec prescribes: only whether the server survives is judged.
 */
const ERROR_CODES: Readonly<Record<string, readonly number[]>> = {
  [NOT_JSON.name]: [-32700],
  'missing-jsonrpc': [-32600],
  'wrong-jsonrpc-version': [-32600],
  'missing-method': [-32600],
  'method-not-string': [-32600],
  'empty-object': [-32600],
  'non-object-number': [-32600],
  'non-object-string': [-32600],
  'non-object-null': [-32600],
  'params-number': [-32600, -32602],
  'params-array': [-32600, -32602],
};

/** The invariants a row judges; the others the catalogue names for a kind are listed as not judged (`notJudged`). */
const JUDGED: ReadonlySet<InvariantId> = new Set(['rpc.error-code', 'rpc.survives-bad-input']);

/** Every way a rogue run against a process or URL falls short of the in-process one (printed with the table, in the JSON). */
export const ROGUE_CANNOT_JUDGE: readonly string[] = [
  'whether a handler saw a cancel or was aborted (cancel-* kinds: only what the server wrote afterwards)',
  'whether an error was raised inside the server and swallowed (only a crash, a hang or an answer shows)',
  'the rogue\'s own side of a rule (a frame that breaks rpc.well-formed or rpc.request-id-type is the rogue\'s fault; judged is the server\'s reaction)',
];

/**
 * The verdicts of one rogue row, pure: `rpc.error-code` when the kind has a code that answers it
 * (`codes`), met when some answer is an error with one of them; `rpc.survives-bad-input` met
 * when the server answered the ping after the frames.
 */
export function rogueVerdicts(codes: readonly number[] | undefined, answer: string, state: RogueProcessRow['state']): RogueVerdict[] {
  const verdicts: RogueVerdict[] = [];
  if (codes && codes.length > 0) {
    const want = codes.map((c) => `error ${c} (${NAMES[c] ?? 'error'})`).join(' or ');
    const met = codes.some((c) => answer.split(', ').includes(`error ${c}`));
    verdicts.push({ invariant: 'rpc.error-code', met, detail: met ? `answered ${answer}` : `answered ${answer === 'none' ? 'nothing' : answer}, not ${want}` });
  }
  verdicts.push({
    invariant: 'rpc.survives-bad-input',
    met: state === 'ok',
    detail: state === 'ok' ? 'answered the ping after it' : state === 'crashed' ? 'the server exited (or the connection ended) after the frame' : `no answer to a ping within ${PING_MS} ms after the frame: it hangs`,
  });
  return verdicts;
}

/** The rogue's setup with the SDK server's hanging tool replaced by the target's first tool. */
function retarget(frame: JsonValue, tool: string): JsonValue {
  if (isJsonObject(frame) && frame.method === 'tools/call' && isJsonObject(frame.params) && (frame.params.name === HANG_TOOL || frame.params.name === 'echo')) {
    return { ...frame, params: { name: tool, arguments: {} } } as JsonValue;
  }
  return frame;
}

/**
 * `rogue --stdio CMD | --url URL`: every rogue frame aimed at a server (src/rogue/rogueFrames.ts,
 * plus a line that is not JSON over stdio) against a fresh process or session each: the frames
 * written after the handshake (and the kind's setup, a call of the target's first tool), then a
 * `ping`. A row says what came back, whether the server still answers, crashed or hangs, and
 * judges `rpc.error-code` where a JSON-RPC code applies and `rpc.survives-bad-input` always.
 * Kinds that need the SDK client's side (a pending call of the rogue's own) are left out, and said.
 */
export async function rogueProcess(target: Endpoint, tool: string, filter?: string): Promise<RogueProcessReport> {
  const matches = (name: string) => !filter || name.includes(filter);
  const serverKinds = rogueKinds.filter((k: RogueKind) => k.target === 'server' && matches(k.name));
  const kinds = serverKinds.filter((k) => !k.options?.pendingCall && k.options?.initializeId === undefined);
  const leftOut = serverKinds.filter((k) => !kinds.includes(k)).map((k) => ({ kind: k.name, why: k.options?.pendingCall ? 'needs a pending call of mcp-sim\'s own SDK client' : 'needs initialize under another id than mcp-sim\'s client sends' }));
  const rows: RogueProcessRow[] = [];
  const runs: { name: string; description: string; write: (conn: TargetConnection) => boolean; ids: JsonValue[]; invariants: readonly InvariantId[]; code?: number }[] = kinds.map((kind) => ({
    name: kind.name,
    description: kind.description,
    write: (conn) => {
      for (const f of kind.options?.setup ?? []) void conn.send(retarget(f, tool));
      for (const f of kind.frames) void conn.send(retarget(f, tool));
      return true;
    },
    ids: kind.frames.flatMap((f) => (isJsonObject(f) && 'id' in f ? [f.id as JsonValue] : [])),
    invariants: kind.invariants,
    ...(kind.expect?.errorCode !== undefined && { code: kind.expect.errorCode }),
  }));
  if (matches(NOT_JSON.name) && target.kind === 'process') {
    runs.unshift({ name: NOT_JSON.name, description: NOT_JSON.description, write: (conn) => (conn.sendRaw ? (conn.sendRaw(NOT_JSON.text), true) : false), ids: [], invariants: ['rpc.error-code'] });
  } else if (matches(NOT_JSON.name)) leftOut.push({ kind: NOT_JSON.name, why: NOT_OVER_HTTP });
  for (const run of runs) {
    const t0 = performance.now();
    const recorder = new TraceRecorder(() => performance.now() - t0);
    const inbox = new Inbox();
    const conn = await target.open(recorder, inbox);
    try {
      await handshake(conn, inbox, DEFAULT_PROCESS_START_MS);
      if (!run.write(conn)) {
        leftOut.push({ kind: run.name, why: NOT_OVER_HTTP });
        continue;
      }
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const answers = inbox.frames.filter((f) => isJsonObject(f) && ('result' in f || 'error' in f) && f.id !== 0 && (run.ids.some((id) => JSON.stringify(id) === JSON.stringify(f.id)) || f.id === null));
      const answer = answers.length === 0 ? 'none' : answers.map((a) => (isJsonObject(a) && isJsonObject(a.error) ? `error ${a.error.code}` : 'result')).join(', ');
      void conn.send({ jsonrpc: '2.0', id: 'rogue-ping', method: 'ping' });
      const pong = await inbox.waitFor((f) => isJsonObject(f) && f.id === 'rogue-ping', PING_MS);
      const state = pong !== undefined ? 'ok' : conn.exited || inbox.endedBecause ? 'crashed' : 'hung';
      const codes = ERROR_CODES[run.name] ?? (run.code !== undefined ? [run.code] : undefined);
      rows.push({
        kind: run.name,
        description: run.description,
        answer,
        usable: pong !== undefined,
        state,
        ...(run.code !== undefined && { expected: { errorCode: run.code, met: answer.split(', ').includes(`error ${run.code}`) } }),
        verdicts: rogueVerdicts(codes, answer, state),
        notJudged: run.invariants.filter((id) => !JUDGED.has(id)),
      });
    } finally {
      await conn.close();
    }
  }
  return { rows, cannotJudge: ROGUE_CANNOT_JUDGE, leftOut };
}

/** The rows as a table for the terminal: each verdict `ok` or `NO` with why. */
export function formatRogueProcessTable(rows: readonly RogueProcessRow[]): string {
  const head = ['kind', 'answer', 'state', 'verdict'];
  const body = rows.map((r) => [r.kind, r.answer, r.state, r.verdicts.map((v) => `${v.invariant} ${v.met ? 'ok' : `NO (${v.detail})`}`).join('; ')]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  return [head, ...body].map((cells) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}
