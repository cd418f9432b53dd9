import { judge } from '../model/judge.ts';
import { isKnockOn } from '../model/attribution.ts';
import type { Finding } from '../model/finding.ts';
import type { InvariantId } from '../model/invariants.ts';
import { defaultSdk } from '../sdk/load.ts';
import type { SdkAdapter } from '../sdk/SdkAdapter.ts';
import { otherSide, type Side } from '../sim/scenario.ts';
import { describeReaction, type RogueReaction } from './reaction.ts';
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
  /** What the rogue's frames break on its own side (`RogueKind.invariants`). */
  readonly invariants: readonly InvariantId[];
  /** The invariants that judge the reaction (`RogueKind.expectation`). */
  readonly expectation: readonly InvariantId[];
  /** What the SDK did with the frames: a description (`describeReaction`), not a verdict. */
  readonly reaction: RogueReaction;
  readonly effects: readonly string[];
  readonly errorCodes: readonly number[];
  /** The ping after the frames was answered: the model found no `rpc.survives-bad-input`. */
  readonly followUpOk: boolean;
  /** The model's findings on the attacked side (`judge()`, the rogue's side left out). */
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
 * judges each run with the model, and returns the behaviour table and the findings (`mcp-sim rogue`).
 */
export async function rogueCampaign(options: RogueCampaignOptions = {}): Promise<RogueCampaignResult> {
  const framings = options.framings ?? ['raw', 'stdio'];
  const kinds = rogueKinds.filter((k) => (!options.target || k.target === options.target) && (!options.filter || k.name.includes(options.filter)));
  const sdk = options.sdk ?? (await defaultSdk());
  const rows: RogueRow[] = [];
  for (const kind of kinds) for (const framing of framings) rows.push(await runKind(kind, framing, options.seed, sdk));
  const findings = rows.flatMap((r) => r.findings.map((f) => ({ ...f, kind: r.kind, target: r.target, framing: r.framing })));
  return { rows, findings };
}

/**
 * Runs one kind and judges its trace with the model (`judge()` on the virtual clock, told which
 * side the rogue plays, so only the attacked endpoint's conduct is found); the reaction is
 * described from the attack window.
 */
export async function runKind(kind: RogueKind, framing: RogueFraming = 'raw', seed?: number, sdk?: SdkAdapter): Promise<RogueRow> {
  const adapter = sdk ?? (await defaultSdk());
  const run = await runRogue(kind.frames, { ...kind.options, target: kind.target, framing, label: kind.name, ...(seed !== undefined && { seed }), sdk: adapter });
  const findings = judge(run.trace, undefined, { facts: adapter.facts, rogue: otherSide(kind.target) });
  const { reaction, effects, errorCodes } = describeReaction(run.trace.slice(run.attack.start, run.attack.end), kind.target);
  return {
    kind: kind.name,
    target: kind.target,
    framing,
    description: kind.description,
    invariants: kind.invariants,
    expectation: kind.expectation,
    reaction,
    effects,
    errorCodes,
    followUpOk: !findings.some((f) => f.invariant === 'rpc.survives-bad-input'),
    findings,
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
    const ids = [...new Set(group.flatMap((r) => r.findings.map((f) => `${f.invariant}${knockOnNote(f)}${group.length > 1 && !group.every((g) => g.findings.some((x) => x.invariant === f.invariant)) ? ` (${r.framing})` : ''}`)))];
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
  return `${r.reaction}${detail}`;
}

/**
 * A knock-on names its root (`attribution.ts`): a finding that follows from the rogue's own
 * breach (a reused request id, say) is what the SDK did with it, counted under that root, which is
 * the rogue's: listed, never failing the run (`countedFindings`).
 */
function knockOnNote(f: Finding): string {
  return f.rootCause ? ` (after ${f.rootCause.invariant})` : '';
}

/** The findings a rogue campaign's verdict counts: the attacked side's own, knock-ons of another finding aside. */
export function countedFindings<F extends Finding>(findings: readonly F[]): F[] {
  return findings.filter((f) => !isKnockOn(f));
}
