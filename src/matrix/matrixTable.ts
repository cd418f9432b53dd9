import { basename } from 'node:path';
import type { InvariantId } from '../model/invariants.ts';
import type { CauseFound, MatrixColumn } from './causeMatrix.ts';

/** A cell of the matrix: the cause broke the release's campaign in `runs` runs, or not, or the release did not run it. */
export type MatrixCell =
  | { readonly status: 'violated'; readonly runs: number; readonly share: number; readonly cause: CauseFound }
  | { readonly status: 'clean' }
  | { readonly status: 'not-run'; readonly why: string };

/** A row: one cause (invariant, clause, transport variant, shape of its minimal case), stable across releases. */
export interface MatrixRow {
  /** `entryKey`: `<invariant>[/<clause>] <variant> <shape>`. */
  readonly key: string;
  readonly invariant: InvariantId;
  readonly clause?: string;
  readonly variant: string;
  readonly shape: string;
  readonly cells: readonly MatrixCell[];
}

/** The transport profile a variant (`variantOf`) belongs to: `memory`, or `http` for `http/…`. */
const profileOf = (variant: string) => variant.split('/')[0]!;

/**
 * The rows of the matrix: every cause found on some release, sorted by key. A cell is `not-run`
 * when its release could not be driven or left out the cause's profile: a blank there would
 * claim "clean" for cases the release never ran.
 */
export function matrixRows(columns: readonly MatrixColumn[]): MatrixRow[] {
  const first = new Map<string, CauseFound>();
  for (const c of columns) if (c.status === 'ran') for (const cause of c.causes) if (!first.has(cause.key)) first.set(cause.key, cause);
  return [...first.values()]
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((cause) => ({
      key: cause.key,
      invariant: cause.invariant,
      ...(cause.clause !== undefined && { clause: cause.clause }),
      variant: cause.variant,
      shape: cause.shape,
      cells: columns.map((c): MatrixCell => {
        if (c.status === 'cannot') return { status: 'not-run', why: 'the release cannot be driven' };
        if (!(c.profiles as readonly string[]).includes(profileOf(cause.variant))) return { status: 'not-run', why: `profile ${profileOf(cause.variant)} left out` };
        const found = c.causes.find((x) => x.key === cause.key);
        return found ? { status: 'violated', runs: found.runs, share: c.runs > 0 ? found.runs / c.runs : 0, cause: found } : { status: 'clean' };
      }),
    }));
}

/**
 * A short, unique heading per column: the version, and where two columns share one (a release
 * and a patched copy of it), the folder's name too.
 */
export function columnLabels(columns: readonly MatrixColumn[]): string[] {
  const version = (c: MatrixColumn) => c.sdk?.version ?? (/[\\/]/.test(c.choice) ? basename(c.choice) : c.choice);
  return columns.map((c) => {
    const twins = columns.filter((d) => version(d) === version(c)).length > 1;
    return twins ? `${version(c)} (${c.choice === 'installed' ? 'installed' : basename(c.choice)})` : version(c);
  });
}

/** Where each violated cell's replay file is: `files[column].get(row key)`. */
export type ReplayFileIndex = readonly ReadonlyMap<string, string>[];

/**
 * The matrix as Markdown: a row per cause, a column per release; a violated cell is its run
 * count linked to its minimal counterexample (`link` turns a replay file into a path relative to
 * the document), `–` is clean, `n/a` not run. Under the table: what each release left out or
 * could not do, and why.
 */
export function matrixMarkdown(
  columns: readonly MatrixColumn[],
  campaign: { readonly seed: number; readonly runs: number; readonly profiles: readonly string[] },
  files: ReplayFileIndex = [],
  link: (file: string) => string = (f) => f,
): string {
  const labels = columnLabels(columns);
  const rows = matrixRows(columns);
  const lines = [
    `Seed ${campaign.seed}, ${campaign.runs} cases per release, profiles ${campaign.profiles.join(',')}: the same cases on every release, ` +
      `drawn with every profile; a release that lacks a profile does not run its cases (\`fitToRelease\`: the column's profiles are ` +
      `under its version, its cells of the other profiles are \`n/a\`), so the cases it runs are the same cases as on every other release. Cell: runs broken by that cause, linked to its minimal counterexample on that release ` +
      '(`knock-on`: seen only as the knock-on of another root cause, so counted under that one); `–` clean; `n/a` not run.',
    '',
    `| invariant | cause | ${columns.map((c, i) => (c.status === 'ran' && c.leftOut.length > 0 ? `${labels[i]} (${c.profiles.join(',')})` : labels[i])).join(' | ')} |`,
    `|---|---|${columns.map(() => '---|').join('')}`,
  ];
  for (const row of rows) {
    const cells = row.cells.map((cell, i) => {
      if (cell.status === 'clean') return '–';
      if (cell.status === 'not-run') return 'n/a';
      const file = files[i]?.get(row.key);
      // Seen, yet counted in no run: its findings were knock-ons of another root cause in every run (docs/blame.md).
      const text = cell.runs > 0 ? `${cell.runs}` : 'knock-on';
      return file ? `[${text}](${link(file)})` : text;
    });
    const invariant = `\`${row.invariant}\`${row.clause !== undefined ? ` (${row.clause})` : ''}`;
    lines.push(`| ${invariant} | ${row.variant} ${row.shape} | ${cells.join(' | ')} |`);
  }
  if (rows.length === 0) lines.push(`| ${['(none)', '', ...columns.map(() => '')].join(' | ')} |`);
  const notes = columns.flatMap((c, i) => {
    if (c.status === 'cannot') return [`- **${labels[i]}** cannot be driven: ${c.reason}`];
    return [...c.leftOut.map((l) => `- ${labels[i]}: left out ${l.what}: ${l.why}`), ...c.limits.map((l) => `- ${labels[i]}: limit ${l.what}: ${l.why}`)];
  });
  if (notes.length > 0) lines.push('', ...notes);
  return lines.join('\n');
}
