import { performance } from 'node:perf_hooks';
import { isKnockOn } from '../model/attribution.ts';
import { JUDGED_ON_A_REAL_CLOCK, type RealClock } from '../model/clock.ts';
import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import { judgeObserved } from '../model/judgeObserved.ts';
import { DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS, DEFAULT_PROCESS_START_MS } from '../options/defaults.ts';
import { handshake, Inbox, type Endpoint, type TargetConnection } from '../real/index.ts';
import { TraceRecorder } from '../sim/trace.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import { ALWAYS_JUDGED, rogueKinds, type RogueKind } from './rogueFrames.ts';
import { FOLLOW_UP_ID, HANG_TOOL } from './runRogue.ts';

/** What one rogue kind did to the server: its reaction in words, and the model's findings on the run. */
export interface RogueProcessRow {
  readonly kind: string;
  readonly description: string;
  /** What came back for the rogue frames with an id (or id null): `error <code>`, `result`, or `none`. */
  readonly answer: string;
  /** The `ping` after the frames was answered. */
  readonly usable: boolean;
  /** `crashed` (exited), `hung` (no answer to the ping), or `ok`: a description; the model's findings say what breaks a rule. */
  readonly state: 'ok' | 'crashed' | 'hung';
  /** The invariants that judge the kind (`RogueKind.expectation`) that a black-box run judges. */
  readonly expectation: readonly InvariantId[];
  /** The model's findings on the server (`judgeObserved` with the rogue's client left out), knock-ons marked. */
  readonly findings: readonly Finding[];
  /** The invariants of the kind's expectation that cannot be judged from outside (not on a real clock of a server: `JUDGED_ON_A_REAL_CLOCK.server`). */
  readonly notJudged: readonly InvariantId[];
}

/** `rogue -- CMD | URL | testbed:LANG`: the rows, and what the run could not judge (every report says so). */
export interface RogueProcessReport {
  readonly rows: readonly RogueProcessRow[];
  /** What cannot be judged from outside, in words. */
  readonly cannotJudge: readonly string[];
  /** Kinds of the catalogue not run against this target, each with why. */
  readonly leftOut: readonly { readonly kind: string; readonly why: string }[];
}

/** How long the frames get before the ping. */
const SETTLE_MS = 300;

/**
 * The real clock the runs are judged on: the defaults of a black-box campaign. The ping after the
 * frames is waited for up to its hang bound, so a server that does not answer it is stuck on
 * evidence (`rpc.survives-bad-input`), not merely slow.
 */
export const ROGUE_CLOCK: RealClock = { kind: 'real', inFlightMs: DEFAULT_IN_FLIGHT_MS, hangAfterMs: DEFAULT_HANG_AFTER_MS, graceMs: DEFAULT_PROCESS_GRACE_MS };

/** A line that is not JSON: the one rogue frame only a raw stdio write can carry (`rpc.error-code`: -32700). */
const NOT_JSON = { name: 'not-json', description: 'a line that is not JSON (a truncated request)', text: '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"' };

const NOT_OVER_HTTP = 'over HTTP a body that is not JSON is the HTTP rogue\'s (http.rejects-bad-input)';

/** Every way a rogue run against a process or URL falls short of the in-process one (printed with the table, in the JSON). */
export const ROGUE_CANNOT_JUDGE: readonly string[] = [
  'whether a handler saw a cancel or was aborted (cancel-* kinds: only what the server wrote afterwards)',
  'whether an error was raised inside the server and swallowed (only a crash, a hang or an answer shows)',
  'the rogue\'s own side of a rule (a frame that breaks rpc.well-formed or rpc.request-id-type is the rogue\'s fault; judged is the server\'s reaction)',
];

/** The rogue's setup with the SDK server's hanging tool replaced by the target's first tool. */
function retarget(frame: JsonValue, tool: string): JsonValue {
  if (isJsonObject(frame) && frame.method === 'tools/call' && isJsonObject(frame.params) && (frame.params.name === HANG_TOOL || frame.params.name === 'echo')) {
    return { ...frame, params: { name: tool, arguments: {} } } as JsonValue;
  }
  return frame;
}

/** One kind as run against a target: how its frames are written, and what judges it. */
interface ProcessRun {
  readonly name: string;
  readonly description: string;
  readonly write: (conn: TargetConnection) => boolean;
  readonly ids: readonly JsonValue[];
  readonly expectation: readonly InvariantId[];
}

/**
 * `rogue -- CMD | URL | testbed:LANG`: every rogue frame aimed at a server (src/rogue/rogueFrames.ts,
 * plus a line that is not JSON over stdio) against a fresh process or session each: the frames
 * written after the handshake (and the kind's setup, a call of the target's first tool), then a
 * `ping`, then the connection closed. Each run is recorded and judged by the model on a real clock
 * (`judgeObserved`, the rogue client's own breaches left out); a row describes what came back and
 * lists the findings. Kinds that need the SDK client's side (a pending call of the rogue's own)
 * are left out, and said.
 */
export async function rogueProcess(target: Endpoint, tool: string, filter?: string): Promise<RogueProcessReport> {
  const matches = (name: string) => !filter || name.includes(filter);
  const serverKinds = rogueKinds.filter((k: RogueKind) => k.target === 'server' && matches(k.name));
  const kinds = serverKinds.filter((k) => !k.options?.pendingCall && k.options?.initializeId === undefined);
  const leftOut = serverKinds.filter((k) => !kinds.includes(k)).map((k) => ({ kind: k.name, why: k.options?.pendingCall ? 'needs a pending call of mcp-sim\'s own SDK client' : 'needs initialize under another id than mcp-sim\'s client sends' }));
  const rows: RogueProcessRow[] = [];
  const runs: ProcessRun[] = kinds.map((kind) => ({
    name: kind.name,
    description: kind.description,
    write: (conn) => {
      for (const f of kind.options?.setup ?? []) void conn.send(retarget(f, tool));
      for (const f of kind.frames) void conn.send(retarget(f, tool));
      return true;
    },
    ids: kind.frames.flatMap((f) => (isJsonObject(f) && 'id' in f ? [f.id as JsonValue] : [])),
    expectation: kind.expectation,
  }));
  if (matches(NOT_JSON.name) && target.kind === 'process') {
    runs.unshift({ name: NOT_JSON.name, description: NOT_JSON.description, write: (conn) => (conn.sendRaw ? (conn.sendRaw(NOT_JSON.text), true) : false), ids: [], expectation: ['rpc.error-code', ...ALWAYS_JUDGED] });
  } else if (matches(NOT_JSON.name)) leftOut.push({ kind: NOT_JSON.name, why: NOT_OVER_HTTP });
  for (const run of runs) {
    const row = await runOne(target, run);
    if (row) rows.push(row);
    else leftOut.push({ kind: run.name, why: NOT_OVER_HTTP });
  }
  return { rows, cannotJudge: ROGUE_CANNOT_JUDGE, leftOut };
}

/** One kind against a fresh connection, recorded and judged; `undefined` when the target cannot carry its frames. */
async function runOne(target: Endpoint, run: ProcessRun): Promise<RogueProcessRow | undefined> {
  const t0 = performance.now();
  const recorder = new TraceRecorder(() => performance.now() - t0);
  const inbox = new Inbox();
  const conn = await target.open(recorder, inbox);
  let answer = 'none';
  let state: RogueProcessRow['state'] = 'ok';
  try {
    await handshake(conn, inbox, DEFAULT_PROCESS_START_MS);
    if (!run.write(conn)) return undefined;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const answers = inbox.frames.filter((f) => isJsonObject(f) && ('result' in f || 'error' in f) && f.id !== 0 && (run.ids.some((id) => JSON.stringify(id) === JSON.stringify(f.id)) || f.id === null));
    if (answers.length > 0) answer = answers.map((a) => (isJsonObject(a) && isJsonObject(a.error) ? `error ${a.error.code}` : 'result')).join(', ');
    void conn.send({ jsonrpc: '2.0', id: FOLLOW_UP_ID, method: 'ping' });
    const pong = await inbox.waitFor((f) => isJsonObject(f) && f.id === FOLLOW_UP_ID, ROGUE_CLOCK.hangAfterMs);
    state = pong !== undefined ? 'ok' : conn.exited || inbox.endedBecause ? 'crashed' : 'hung';
  } finally {
    await conn.close();
  }
  recorder.record({ kind: 'end', outcome: 'quiescent' });
  const { findings } = judgeObserved(recorder.events, { clock: ROGUE_CLOCK, rogue: 'client' });
  return {
    kind: run.name,
    description: run.description,
    answer,
    usable: state === 'ok',
    state,
    expectation: run.expectation.filter((id) => JUDGED_ON_A_REAL_CLOCK.server.has(id)),
    findings,
    notJudged: run.expectation.filter((id) => !JUDGED_ON_A_REAL_CLOCK.server.has(id)),
  };
}

/** The findings a rogue run against a target counts toward its verdict: knock-ons of another finding aside. */
export const countedRowFindings = (row: RogueProcessRow): Finding[] => row.findings.filter((f) => !isKnockOn(f));

/** The rows as a table for the terminal: each kind's answer, state, and the model's findings (`—` for none). */
export function formatRogueProcessTable(rows: readonly RogueProcessRow[]): string {
  const head = ['kind', 'answer', 'state', 'findings'];
  const body = rows.map((r) => [r.kind, r.answer, r.state, [...new Set(r.findings.map((f) => `${f.invariant}${f.rootCause ? ` (after ${f.rootCause.invariant})` : ''}`))].join(', ') || '—']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  return [head, ...body].map((cells) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}
