import type { Finding } from '../model/finding.ts';
import type { SdkAdapter } from '../sdk/SdkAdapter.ts';
import type { Side } from '../sim/scenario.ts';
import { judgeRogue, type RogueReaction } from './judgeRogue.ts';
import { rogueKinds, type RogueKind } from './rogueFrames.ts';
import { runRogue, type RogueFraming } from './runRogue.ts';

export interface RogueCampaignOptions {
  /** Framings to run every kind under. @default ['raw', 'stdio'] */
  readonly framings?: readonly RogueFraming[];
  /** Only kinds attacking this side. @default both */
  readonly target?: Side;
  /** Only kinds whose name contains this text. @default all */
  readonly filter?: string;
  /** @default DEFAULT_SEED */
  readonly seed?: number;
  /** The SDK release under attack. @default the one installed next to mcp-sim */
  readonly sdk?: SdkAdapter;
}

/** One line of the behaviour table: what one SDK endpoint did with one rogue kind under one framing. */
export interface RogueRow {
  readonly kind: string;
  readonly target: Side;
  readonly framing: RogueFraming;
  readonly description: string;
  readonly invariants: readonly string[];
  readonly reaction: RogueReaction;
  readonly effects: readonly string[];
  readonly errorCodes: readonly number[];
  readonly followUpOk: boolean;
  /** The catalogue's expectation was not met (an expected code or abort missing), in words. */
  readonly unmet: readonly string[];
  readonly findings: readonly Finding[];
  readonly hash: string;
}

/** A finding with the rogue run it came from. */
export type RogueFinding = Finding & { readonly kind: string; readonly target: Side; readonly framing: RogueFraming };

export interface RogueCampaignResult {
  readonly rows: readonly RogueRow[];
  readonly findings: readonly RogueFinding[];
}

/**
 * Runs every catalogued rogue kind against the real SDK endpoint it attacks, under each framing,
 * judges each run, and returns the behaviour table and the findings (`mcp-sim rogue`).
 */
export async function rogueCampaign(options: RogueCampaignOptions = {}): Promise<RogueCampaignResult> {
  const framings = options.framings ?? ['raw', 'stdio'];
  const kinds = rogueKinds.filter((k) => (!options.target || k.target === options.target) && (!options.filter || k.name.includes(options.filter)));
  const rows: RogueRow[] = [];
  for (const kind of kinds) for (const framing of framings) rows.push(await runKind(kind, framing, options.seed, options.sdk));
  const findings = rows.flatMap((r) => r.findings.map((f) => ({ ...f, kind: r.kind, target: r.target, framing: r.framing })));
  return { rows, findings };
}

/** Runs and judges one kind. */
export async function runKind(kind: RogueKind, framing: RogueFraming = 'raw', seed?: number, sdk?: SdkAdapter): Promise<RogueRow> {
  const run = await runRogue(kind.frames, { ...kind.options, target: kind.target, framing, label: kind.name, ...(seed !== undefined && { seed }), ...(sdk && { sdk }) });
  const verdict = judgeRogue(run);
  const unmet: string[] = [];
  if (kind.expect?.errorCode !== undefined && !verdict.errorCodes.includes(kind.expect.errorCode)) {
    unmet.push(`expected an error response with code ${kind.expect.errorCode}`);
  }
  if (kind.expect?.handlerAborted && verdict.abortedIds.length === 0) unmet.push('expected the in-flight handler to be aborted');
  return {
    kind: kind.name,
    target: kind.target,
    framing,
    description: kind.description,
    invariants: kind.invariants,
    reaction: verdict.reaction,
    effects: verdict.effects,
    errorCodes: verdict.errorCodes,
    followUpOk: run.followUp.ok,
    unmet,
    findings: verdict.findings,
    hash: run.hash,
  };
}

/** The behaviour table as Markdown: one line per kind and target, one column per framing. */
export function formatRogueTable(rows: readonly RogueRow[]): string {
  const framings = [...new Set(rows.map((r) => r.framing))];
  const byKind = new Map<string, RogueRow[]>();
  for (const r of rows) {
    const k = `${r.target}|${r.kind}`;
    byKind.set(k, [...(byKind.get(k) ?? []), r]);
  }
  const lines = [
    `| target | kind | ${framings.map((f) => `${f}: reaction`).join(' | ')} | follow-up | findings |`,
    `|---|---|${framings.map(() => '---').join('|')}|---|---|`,
  ];
  for (const group of byKind.values()) {
    const first = group[0]!;
    const cells = framings.map((f) => {
      const r = group.find((x) => x.framing === f);
      return r ? describeRow(r) : '';
    });
    const follow = group.every((r) => r.followUpOk) ? 'ok' : group.map((r) => `${r.framing}: ${r.followUpOk ? 'ok' : 'FAILED'}`).join(', ');
    const ids = [...new Set(group.flatMap((r) => r.findings.map((f) => `${f.invariant}${group.length > 1 && !group.every((g) => g.findings.some((x) => x.invariant === f.invariant)) ? ` (${r.framing})` : ''}`)))];
    lines.push(`| ${first.target} | ${first.kind} | ${cells.join(' | ')} | ${follow} | ${ids.join(', ') || '—'} |`);
  }
  return lines.join('\n');
}

function describeRow(r: RogueRow): string {
  const squash = (e: string) => e.replace(/\s+/g, ' ').replace(/\|/g, '/');
  const cut = (e: string) => (e.length > 56 ? `${e.slice(0, 56)}…` : e);
  let detail = '';
  if (r.reaction === 'error-response') detail = ` ${r.errorCodes.join(', ')}`;
  else if (r.reaction !== 'ignored' && r.reaction !== 'result' && r.reaction !== 'closed') {
    detail = ` (${r.effects.map((e) => cut(squash(r.reaction === 'onerror' ? e.replace(/^onerror: /, '') : e))).join('; ')})`;
  }
  return `${r.reaction}${detail}${r.unmet.length ? ` ⚠ ${r.unmet.join('; ')}` : ''}`;
}
