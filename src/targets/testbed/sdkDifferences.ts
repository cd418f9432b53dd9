import { canonicalJson, type JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import type { SdkTestbedLanguage } from './sdkTestbed.ts';

/**
 * A known, named policy difference of one SDK on the wire, for the same scripted program: what
 * that SDK adds, drops or words differently where the handler did the same thing. `rewrite` turns
 * a frame of that SDK into the TypeScript 1.x test bed's form (`undefined`: the frame has no
 * counterpart there); a frame it does not concern comes back unchanged (the same object).
 * Every entry must fire on the fixed programs: a difference that no longer happens is removed.
 */
export interface SdkDifference {
  readonly language: SdkTestbedLanguage;
  readonly name: string;
  /** Which side's code does it: the SDK on its own, or what the handler returned as that SDK's users write it. */
  readonly by: 'sdk' | 'idiom';
  /** @param cancelled the (renamed) ids the client has cancelled so far in this transcript */
  rewrite(frame: { readonly [key: string]: JsonValue }, fromServer: boolean, cancelled: ReadonlySet<JsonValue>): { readonly [key: string]: JsonValue } | undefined;
}

function withoutIsErrorFalse(f: { readonly [key: string]: JsonValue }): { readonly [key: string]: JsonValue } {
  if (!isJsonObject(f.result) || f.result.isError !== false) return f;
  const { isError: _, ...result } = f.result;
  return { ...f, result };
}

const TS_ERROR_PREFIX = /^MCP error -?\d+: /;

export const SDK_DIFFERENCES: readonly SdkDifference[] = [
  {
    language: 'typescript',
    name: "an error's message is sent as `MCP error <code>: <message>` (McpError prefixes its own message)",
    by: 'sdk',
    rewrite: (f) =>
      isJsonObject(f.error) && typeof f.error.message === 'string' && TS_ERROR_PREFIX.test(f.error.message)
        ? { ...f, error: { ...f.error, message: f.error.message.replace(TS_ERROR_PREFIX, '') } }
        : f,
  },
  { language: 'python', name: 'a tool result carries `"isError": false`', by: 'sdk', rewrite: withoutIsErrorFalse },
  { language: 'rust', name: 'a tool result carries `"isError": false` (CallToolResult::success sets it)', by: 'sdk', rewrite: withoutIsErrorFalse },
  { language: 'java', name: 'a tool result carries `"isError": false` (CallToolResult.builder() sets it)', by: 'sdk', rewrite: withoutIsErrorFalse },
  {
    language: 'python',
    name: '`roots/list` is sent without `params` (TypeScript and Go send `"params": {}`)',
    by: 'sdk',
    rewrite: (f, fromServer) => (fromServer && f.method === 'roots/list' && !('params' in f) ? { ...f, params: {} } : f),
  },
  {
    language: 'rust',
    name: 'a server→client request carries `_meta.progressToken` (rmcp numbers one for every request it sends)',
    by: 'sdk',
    rewrite: (f, fromServer) => {
      if (!fromServer || typeof f.method !== 'string' || !('id' in f) || !isJsonObject(f.params) || !isJsonObject(f.params._meta) || !('progressToken' in f.params._meta)) return f;
      const { progressToken: _, ...meta } = f.params._meta;
      const { _meta: __, ...params } = f.params;
      return { ...f, params: Object.keys(meta).length > 0 ? { ...params, _meta: meta } : params };
    },
  },
  {
    language: 'go',
    name: 'a cancelled request is answered: the handler returned ctx.Err() and the SDK wrote it as JSON-RPC error code 0 "context canceled" (the spec: SHOULD NOT respond)',
    by: 'sdk',
    rewrite: (f, fromServer) => (fromServer && isJsonObject(f.error) && f.error.code === 0 && f.error.message === 'context canceled' ? undefined : f),
  },
  {
    language: 'go',
    name: 'a swallowed cancel is answered: the handler caught the cancel and returned a result, and the SDK wrote it (TypeScript, Python and Rust drop it)',
    by: 'sdk',
    rewrite: (f, fromServer, cancelled) => (fromServer && 'result' in f && cancelled.has(f.id!) ? undefined : f),
  },
];

/**
 * A fixed program one SDK cannot run the way the others do, because the SDK lacks what it needs
 * (not a wire difference that can be undone): that bed does not run it (its late frames would
 * land in the next program's run), and the comparison shows it as skipped with `why`.
 */
export interface SdkLack {
  readonly language: SdkTestbedLanguage;
  /** The fixed programs (by name) it concerns. */
  readonly programs: readonly string[];
  readonly why: string;
}

export const SDK_LACKS: readonly SdkLack[] = [
  {
    language: 'java',
    programs: ['a cancel after the first progress, honoured', 'a cancel after the first progress, swallowed'],
    why: 'io.modelcontextprotocol.sdk:mcp 2.1.0 has no server-side cancellation: it ignores notifications/cancelled and gives the handler nothing to observe, so the handler runs to its end and its result is sent for the cancelled id',
  },
];

/** `wire` (a transcript's lines) with `language`'s known differences undone, and which of them fired. */
export function withoutKnownDifferences(language: SdkTestbedLanguage, wire: readonly string[]): { wire: string[]; fired: Set<string> } {
  const fired = new Set<string>();
  const mine = SDK_DIFFERENCES.filter((d) => d.language === language);
  const out: string[] = [];
  const cancelled = new Set<JsonValue>();
  for (const line of wire) {
    const arrow = line.slice(0, 1);
    let frame: { readonly [key: string]: JsonValue } | undefined = JSON.parse(line.slice(2)) as { [key: string]: JsonValue };
    if (arrow === '→' && frame.method === 'notifications/cancelled' && isJsonObject(frame.params)) cancelled.add(frame.params.requestId!);
    for (const d of mine) {
      if (frame === undefined) break;
      const next: { readonly [key: string]: JsonValue } | undefined = d.rewrite(frame, arrow === '←', cancelled);
      if (next !== frame) fired.add(d.name);
      frame = next;
    }
    if (frame !== undefined) out.push(`${arrow} ${canonicalJson(frame)}`);
  }
  return { wire: out, fired };
}
