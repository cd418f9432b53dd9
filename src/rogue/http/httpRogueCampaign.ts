import type { Finding } from '../../model/finding.ts';
import { httpRogueKinds, type HttpRogueKind } from './httpRogueKinds.ts';
import { judgeHttpRogue } from './judgeHttpRogue.ts';
import { runHttpRogue, type HttpRogueRunOptions } from './runHttpRogue.ts';

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
  readonly expected: string;
  readonly actual: string;
  /** JSON-RPC error code in the probe's body, `null` when none. */
  readonly code: number | null;
  readonly followUpOk: boolean;
  /** The catalogue's exact status or code was not met, though no rule broke. */
  readonly unmet: readonly string[];
  readonly findings: readonly Finding[];
  readonly hash: string;
}

export type HttpRogueFinding = Finding & { readonly kind: string };

export interface HttpRogueCampaignResult {
  readonly rows: readonly HttpRogueRow[];
  readonly findings: readonly HttpRogueFinding[];
}

/** Runs and judges one kind. */
export async function runHttpKind(kind: HttpRogueKind, options: HttpRogueCampaignOptions = {}): Promise<HttpRogueRow> {
  const run = await runHttpRogue(kind.attack, {
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.response && { response: options.response }),
    ...(options.wrap && { wrap: options.wrap }),
    ...(options.sdk && { sdk: options.sdk }),
  });
  const v = judgeHttpRogue(kind, run);
  const expected = kind.expect.text ?? `${kind.expect.status}${kind.expect.code !== undefined ? ` (${kind.expect.code})` : ''}`;
  return {
    kind: kind.name,
    description: kind.description,
    expected,
    actual: v.actual,
    code: v.code ?? null,
    followUpOk: run.followUp.ok,
    unmet: v.unmet,
    findings: v.findings,
    hash: run.hash,
  };
}

/** Runs every catalogued rogue HTTP kind against the real SDK server transport (stateful). */
export async function httpRogueCampaign(options: HttpRogueCampaignOptions = {}): Promise<HttpRogueCampaignResult> {
  const rows: HttpRogueRow[] = [];
  for (const kind of httpRogueKinds) if (!options.filter || kind.name.includes(options.filter)) rows.push(await runHttpKind(kind, options));
  return { rows, findings: rows.flatMap((r) => r.findings.map((f) => ({ ...f, kind: r.kind }))) };
}

/** The behaviour table as Markdown. */
export function formatHttpRogueTable(rows: readonly HttpRogueRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '/').replace(/\s+/g, ' ');
  const lines = ['| kind | description | expected | actual | JSON-RPC code | follow-up | findings |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const actual = `${r.actual}${r.unmet.length ? ` ⚠ ${r.unmet.join('; ')}` : ''}`;
    const ids = [...new Set(r.findings.map((f) => f.invariant))].join(', ') || '—';
    lines.push(`| ${r.kind} | ${cell(r.description)} | ${cell(r.expected)} | ${cell(actual)} | ${r.code ?? '—'} | ${r.followUpOk ? 'ok' : 'FAILED'} | ${ids} |`);
  }
  return lines.join('\n');
}
