import { DEFAULT_PROCESS_START_MS } from '../options/defaults.ts';
import { rogueKinds, type RogueKind } from '../rogue/rogueFrames.ts';
import { HANG_TOOL } from '../rogue/runRogue.ts';
import { performance } from 'node:perf_hooks';
import { TraceRecorder } from '../sim/trace.ts';
import { handshake, Inbox, type Target } from '../target/index.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';

/** What one rogue frame did to the server process: its answer, and whether the server stayed usable. */
export interface RogueProcessRow {
  readonly kind: string;
  readonly description: string;
  /** What came back for the rogue frames with an id: `error <code>`, `result`, or `none`. */
  readonly answer: string;
  /** A `ping` after the frames was answered. */
  readonly usable: boolean;
  /** `crashed` (exited), `hung` (no answer to the ping), or `ok`. */
  readonly state: 'ok' | 'crashed' | 'hung';
  /** The catalogue's expected error code, when it has one, and whether the server gave it. */
  readonly expected?: { readonly errorCode: number; readonly met: boolean };
}

const SETTLE_MS = 300;
const PING_MS = 1_500;

/** The rogue's setup with the SDK server's hanging tool replaced by the target's first tool. */
function retarget(frame: JsonValue, tool: string): JsonValue {
  if (isJsonObject(frame) && frame.method === 'tools/call' && isJsonObject(frame.params) && (frame.params.name === HANG_TOOL || frame.params.name === 'echo')) {
    return { ...frame, params: { name: tool, arguments: {} } } as JsonValue;
  }
  return frame;
}

/**
 * `rogue --stdio CMD | --url URL`: every rogue frame aimed at a server (src/rogue/rogueFrames.ts)
 * against a fresh process or session each: the frames written after the handshake (and the
 * kind's setup, a call of the target's first tool), then a `ping`. A row says what came back,
 * whether the server still answers, crashed or hangs. Kinds that need the SDK client's side
 * (a pending call of the rogue's own) are left out.
 */
export async function rogueProcess(target: Target, tool: string, filter?: string): Promise<RogueProcessRow[]> {
  const kinds = rogueKinds.filter((k: RogueKind) => k.target === 'server' && !k.options?.pendingCall && k.options?.initializeId === undefined && (!filter || k.name.includes(filter)));
  const rows: RogueProcessRow[] = [];
  for (const kind of kinds) {
    const t0 = performance.now();
    const recorder = new TraceRecorder(() => performance.now() - t0);
    const inbox = new Inbox();
    const conn = await target.open(recorder, inbox);
    try {
      await handshake(conn, inbox, DEFAULT_PROCESS_START_MS);
      for (const f of kind.options?.setup ?? []) conn.send(retarget(f, tool));
      for (const f of kind.frames) conn.send(retarget(f, tool));
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const ids = kind.frames.flatMap((f) => (isJsonObject(f) && 'id' in f ? [f.id] : []));
      const answers = inbox.frames.filter((f) => isJsonObject(f) && ('result' in f || 'error' in f) && f.id !== 0 && (ids.some((id) => JSON.stringify(id) === JSON.stringify(f.id)) || f.id === null));
      const answer = answers.length === 0 ? 'none' : answers.map((a) => (isJsonObject(a) && isJsonObject(a.error) ? `error ${a.error.code}` : 'result')).join(', ');
      conn.send({ jsonrpc: '2.0', id: 'rogue-ping', method: 'ping' });
      const pong = await inbox.waitFor((f) => isJsonObject(f) && f.id === 'rogue-ping', PING_MS);
      const state = pong !== undefined ? 'ok' : conn.exited || inbox.endedBecause ? 'crashed' : 'hung';
      const code = kind.expect?.errorCode;
      rows.push({
        kind: kind.name,
        description: kind.description,
        answer,
        usable: pong !== undefined,
        state,
        ...(code !== undefined && { expected: { errorCode: code, met: answer.includes(`error ${code}`) } }),
      });
    } finally {
      await conn.close();
    }
  }
  return rows;
}

/** The rows as a table for the terminal. */
export function formatRogueProcessTable(rows: readonly RogueProcessRow[]): string {
  const head = ['kind', 'answer', 'state', 'expected'];
  const body = rows.map((r) => [r.kind, r.answer, r.state, r.expected ? `error ${r.expected.errorCode}: ${r.expected.met ? 'yes' : 'NO'}` : '-']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  return [head, ...body].map((cells) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}
