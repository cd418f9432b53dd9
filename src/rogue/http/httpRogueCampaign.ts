import type { Finding } from '../../model/finding.ts';
import type { InvariantId } from '../../model/invariants.ts';
import { judge } from '../../model/judge.ts';
import { defaultSdk } from '../../sdk/load.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { httpRogueKinds, type HttpRogueKind } from './httpRogueKinds.ts';
import { runHttpRogue, type HttpExchangeRecord, type HttpRogueRunOptions } from './runHttpRogue.ts';

export interface HttpRogueCampaignOptions {
  /** Only kinds whose name contains this text. @default all */
  readonly filter?: string;
  /** @default DEFAULT_SEED */
  readonly seed?: number;
  /** @default 'sse' */
  readonly response?: 'sse' | 'json';
  /** Interposes on `handleRequest` (fixtures). */
  readonly wrap?: HttpRogueRunOptions['wrap'];
  /** The SDK release under attack. @default the one installed next to mcp-sim */
  readonly sdk?: HttpRogueRunOptions['sdk'];
}

/** One line of the behaviour table: what the real server transport did with one rogue kind. */
export interface HttpRogueRow {
  readonly kind: string;
  readonly description: string;
  /** What the spec and the SDK's documentation say the server answers (`HttpRogueKind.spec`), in words. */
  readonly expected: string;
  /** What it answered: the probes' statuses, or the kind's own description of them. */
  readonly actual: string;
  /** JSON-RPC error code in the probe's body, `null` when none. */
  readonly code: number | null;
  /** The invariants that judge the reaction (`HttpRogueKind.expectation`). */
  readonly expectation: readonly InvariantId[];
  /** The ping on session A after the requests was answered: the model found no `rpc.survives-bad-input`. */
  readonly followUpOk: boolean;
  /** The model's findings on the server (`judge()` on the run's trace, the rogue client left out). */
  readonly findings: readonly Finding[];
  readonly hash: string;
}

export type HttpRogueFinding = Finding & { readonly kind: string };

export interface HttpRogueCampaignResult {
  readonly rows: readonly HttpRogueRow[];
  readonly findings: readonly HttpRogueFinding[];
}

/**
 * Runs one kind and judges its trace with the model: `judge()` on the virtual clock with the run's
 * end state (the exchanges left open), told that the client is the rogue.
 */
export async function runHttpKind(kind: HttpRogueKind, options: HttpRogueCampaignOptions = {}): Promise<HttpRogueRow> {
  const sdk = options.sdk ?? (await defaultSdk());
  const run = await runHttpRogue(kind.attack, {
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.response && { response: options.response }),
    ...(options.wrap && { wrap: options.wrap }),
    sdk,
  });
  const findings = judge(run.trace, run.endState, { facts: sdk.facts, rogue: 'client' });
  const probes = run.exchanges.filter((x) => x.probe);
  return {
    kind: kind.name,
    description: kind.description,
    expected: kind.spec.text ?? `${kind.spec.status}${kind.spec.code !== undefined ? ` (${kind.spec.code})` : ''}`,
    actual: kind.describe?.(run) ?? probes.map(statusOf).join(', '),
    code: probes.map(codeOf).find((c) => c !== undefined) ?? null,
    expectation: kind.expectation,
    followUpOk: !findings.some((f) => f.invariant === 'rpc.survives-bad-input'),
    findings,
    hash: run.hash,
  };
}

/** Runs every catalogued rogue HTTP kind against the real SDK server transport (stateful). */
export async function httpRogueCampaign(options: HttpRogueCampaignOptions = {}): Promise<HttpRogueCampaignResult> {
  const rows: HttpRogueRow[] = [];
  const sdk = options.sdk ?? (await defaultSdk());
  for (const kind of httpRogueKinds) if (!options.filter || kind.name.includes(options.filter)) rows.push(await runHttpKind(kind, { ...options, sdk }));
  return { rows, findings: rows.flatMap((r) => r.findings.map((f) => ({ ...f, kind: r.kind }))) };
}

/** The behaviour table as Markdown. */
export function formatHttpRogueTable(rows: readonly HttpRogueRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '/').replace(/\s+/g, ' ');
  const lines = ['| kind | description | spec | actual | JSON-RPC code | follow-up | findings |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const ids = [...new Set(r.findings.map((f) => `${f.invariant}${f.rootCause ? ` (after ${f.rootCause.invariant})` : ''}`))].join(', ') || '—';
    lines.push(`| ${r.kind} | ${cell(r.description)} | ${cell(r.expected)} | ${cell(r.actual)} | ${r.code ?? '—'} | ${r.followUpOk ? 'ok' : 'FAILED'} | ${ids} |`);
  }
  return lines.join('\n');
}

/** A probe's status as the table shows it. */
function statusOf(x: HttpExchangeRecord): string {
  return x.threw ? 'threw' : x.status === undefined ? 'no answer' : `${x.status}${x.settledLate ? ' (late)' : ''}`;
}

/** The JSON-RPC error code in a probe's body, if any. */
function codeOf(x: HttpExchangeRecord): number | undefined {
  for (const f of x.frames) if (isJsonObject(f) && isJsonObject(f.error) && typeof f.error.code === 'number') return f.error.code;
  return undefined;
}
