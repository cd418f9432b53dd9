/**
 * `npm run mutants`: the finding power of `mcp-sim check`, measured by mutation.
 *
 * For each mutant of `mutants/index.json`, a copy of the installed SDK gets that one patch
 * (`mutants/lib.ts`), and `node bin/mcp-sim.js check` runs in a child process with
 * `MCP_SIM_SDK` pointing at the copy, at its default budget (seed and runs untouched, exactly as
 * a user runs it) and, with `--runs N`, at N runs as well. Exit 1 with a FAIL line means killed,
 * 0 survived, anything else is an error of the run. The pristine SDK is run the same way.
 *
 * Then, to say why a mutant survives, `mutants/cases.ts` runs the same campaign's cases without
 * shrinking on the pristine SDK and on each mutant and compares them case by case: how many
 * traces the bug changed at all, and which findings it added (by invariant, with whether the
 * baseline explains them by cause, and whether they are warnings). That comparison estimates
 * what a known-by-cause verdict, a rate check or `--fail-on should` would add; it changes no
 * verdict.
 *
 * Prints a progress line per run and Markdown tables; when every mutant has results it rewrites
 * the generated part of docs/mutation.md. `--filter` re-runs some mutants (an id, or a part of
 * one): their results replace those of the last run with the same budgets. `--report-only`
 * runs nothing: it prints and writes the tables of the last results again (after editing the
 * reasons in `mutants/survivors.json`).
 *
 *   npm run mutants [-- --runs 1500] [--filter ID[,ID…]] [--jobs N] [--report-only]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { CaseTable } from './cases.ts';
import { CACHE_DIR, MUTANTS_DIR, PROJECT_DIR, PatchError, prepareMutant, readMutantIndex, type Mutant } from './lib.ts';
import { DEFAULT_CAMPAIGN_RUNS } from '../src/options/defaults.ts';
import { ENV_SDK } from '../src/sdk/load.ts';

/** The default budget of `check`; the case comparison's first window. */
const DEFAULT_RUNS = DEFAULT_CAMPAIGN_RUNS;
const PRISTINE = 'pristine';
const RUN_TIMEOUT_MS = 20 * 60_000;

/** Why a mutant survives, as recorded after looking at it (`mutants/survivors.json`). */
type SurvivorCause =
  /** The oracle sees the bug as an invariant the baseline already lists: `check` forgives it by id. */
  | 'known-invariant'
  /** The oracle sees the bug only at SHOULD level (a warning), which `check` never fails on. */
  | 'should-only'
  /** The situation that shows the bug is not generated at this budget. */
  | 'not-generated'
  /** The situation is generated, but no rule judges what goes wrong. */
  | 'no-rule'
  /** No behaviour this harness can observe changes. */
  | 'equivalent';

interface SurvivorNote {
  /** One cause, or several joined by `+` (`known-invariant+should-only`). */
  readonly cause: SurvivorCause | string;
  readonly why: string;
}

interface Budget {
  /** `default` (the CLI's own), or a run count. */
  readonly label: string;
  readonly runs: number;
  readonly args: readonly string[];
}

interface CheckOutcome {
  readonly verdict: 'killed' | 'survived' | 'error';
  readonly exitCode: number | null;
  /** The invariants of the FAIL line: findings the baseline does not list, at check's --fail-on level. */
  readonly killers: readonly string[];
  readonly wallMs: number;
  readonly detail?: string;
}

/** How a mutant's cases differ from the pristine SDK's, over the first `window` cases. */
interface CaseDiff {
  readonly window: number;
  /** Cases whose trace hash or findings differ: the bug was exercised. */
  readonly exercised: number;
  /** Cases whose findings (invariant and message) differ. */
  readonly findingsDiffer: number;
  /** Per invariant (violations and warnings): cases showing it, pristine and mutant. */
  readonly counts: Readonly<Record<string, { readonly severity: string; readonly pristine: number; readonly mutant: number }>>;
  /** Violations the mutant adds to a case that the baseline does not explain by cause (the pristine case has none of that id unexplained). */
  readonly newByCause: Readonly<Record<string, number>>;
  /** The same for warnings (what `--fail-on should` with known-by-cause would see). */
  readonly newShouldByCause: Readonly<Record<string, number>>;
  /** Cases where an invariant both runs show is reported with other messages (masked under one id). */
  readonly sameIdOtherMessage: Readonly<Record<string, number>>;
  /** The first case whose trace differs. */
  readonly firstExercised?: number;
}

interface MutantResult {
  readonly id: string;
  readonly checks: Readonly<Record<string, CheckOutcome>>;
  readonly diffs: readonly CaseDiff[];
  readonly casesMs?: number;
  readonly patchError?: string;
  readonly casesError?: string;
}

interface SavedResults {
  readonly when: string;
  /** The campaign seed of the cases compared. */
  readonly seed: number;
  readonly budgets: readonly Budget[];
  readonly pristine: MutantResult;
  readonly mutants: readonly MutantResult[];
}

function parseCli() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      filter: { type: 'string', multiple: true },
      jobs: { type: 'string' },
      'report-only': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log('npm run mutants [-- --runs N] [--filter ID[,ID…]] [--jobs N] [--report-only]');
    process.exit(0);
  }
  const whole = (flag: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    if (!/^[1-9]\d*$/.test(v)) throw new Error(`${flag} takes a positive whole number, not ${JSON.stringify(v)}`);
    return Number(v);
  };
  const filters = (values.filter ?? []).flatMap((f) => f.split(',')).map((f) => f.trim()).filter(Boolean);
  return { runs: whole('--runs', values.runs), filters, jobs: whole('--jobs', values.jobs) ?? availableParallelism(), reportOnly: values['report-only'] === true };
}

/** The environment of a child: `MCP_SIM_SDK` set to `project` (unset for the installed SDK), no campaign overrides. */
function childEnv(project: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.MCP_SIM_RUNS;
  delete env.MCP_SIM_SEED;
  delete env.FORCE_COLOR;
  if (project === undefined) delete env[ENV_SDK];
  else env[ENV_SDK] = project;
  return env;
}

/** Runs `node args` in the project folder; resolves with its exit code, output and wall time. */
function runNode(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; wallMs: number; timedOut: boolean }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, RUN_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, wallMs: Date.now() - started, timedOut });
    });
  });
}

/** `check` at `budget` on the SDK in `project` (the installed one when `undefined`), as a user runs it. */
async function runCheck(id: string, project: string | undefined, budget: Budget): Promise<CheckOutcome> {
  const dir = join(CACHE_DIR, id);
  mkdirSync(dir, { recursive: true });
  const args = ['bin/mcp-sim.js', 'check', ...budget.args, '--json', join(dir, `check-${budget.label}.json`), '--out', join(dir, `repro-${budget.label}`)];
  const { code, out, wallMs, timedOut } = await runNode(args, childEnv(project));
  writeFileSync(join(dir, `check-${budget.label}.log`), out);
  // eslint-disable-next-line no-control-regex
  const text = out.replace(/\x1b\[[0-9;]*m/g, '');
  const fail = /^FAIL: \d+ (?:violation|finding)\(s\) (?:not in|beyond) the baseline (?:at --fail-on \w+ )?\(([^)]*)\)/m.exec(text);
  // A rate regression is named `<invariant> on <variant> [<shape>] more often`: kept as `<invariant> (rate)`.
  const killers = fail ? [...new Set(fail[1]!.split(',').map((s) => s.trim().replace(/ on \S+ \[[^\]]*\] more often$/, ' (rate)')).filter(Boolean))] : [];
  const verdict = code === 1 && killers.length > 0 ? 'killed' : code === 0 ? 'survived' : 'error';
  const tail = text.trim().split('\n').slice(-3).join(' | ');
  return {
    verdict,
    exitCode: code,
    killers,
    wallMs,
    ...(verdict === 'error' && { detail: timedOut ? `timed out after ${RUN_TIMEOUT_MS / 60_000} min` : `exit ${code}: ${tail}` }),
  };
}

/** The case table (`mutants/cases.ts`) of the SDK in `project`, over `runs` cases. */
async function runCases(id: string, project: string | undefined, runs: number): Promise<{ table?: CaseTable; error?: string; wallMs: number }> {
  const file = join(CACHE_DIR, id, `cases-${runs}.json`);
  mkdirSync(join(CACHE_DIR, id), { recursive: true });
  const { code, out, wallMs } = await runNode(['--import', 'tsx', 'mutants/cases.ts', '--runs', String(runs), '--out', file], childEnv(project));
  if (code !== 0) return { error: `cases exit ${code}: ${out.trim().split('\n').slice(0, 2).join(' | ')}`, wallMs };
  return { table: JSON.parse(readFileSync(file, 'utf8')) as CaseTable, wallMs };
}

/** Compares a mutant's case table with the pristine one over the first `window` cases. */
function compareCases(pristine: CaseTable, mutant: CaseTable, window: number): CaseDiff {
  let exercised = 0;
  let findingsDiffer = 0;
  let firstExercised: number | undefined;
  const counts: Record<string, { severity: string; pristine: number; mutant: number }> = {};
  const newByCause: Record<string, number> = {};
  const newShouldByCause: Record<string, number> = {};
  const sameIdOtherMessage: Record<string, number> = {};
  const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
  const n = Math.min(window, pristine.rows.length, mutant.rows.length);
  for (let k = 0; k < n; k++) {
    const p = pristine.rows[k]!;
    const m = mutant.rows[k]!;
    for (const [side, row] of [['pristine', p], ['mutant', m]] as const) {
      for (const f of new Map(row.findings.filter((f) => f.severity !== 'note').map((f) => [f.invariant, f])).values()) {
        const c = (counts[f.invariant] ??= { severity: f.severity, pristine: 0, mutant: 0 });
        c[side]++;
      }
    }
    // The trace, or the end state (a leak shows only there), differs: the bug was exercised.
    const text = (row: typeof p) => row.findings.map((f) => `${f.invariant} ${f.message}`).sort().join('\n');
    const differ = text(p) !== text(m);
    if (p.hash === m.hash && !differ) continue;
    exercised++;
    firstExercised ??= k;
    if (differ) findingsDiffer++;
    const unexplained = (row: typeof p, severity: string) =>
      new Set(row.findings.filter((f) => f.severity === severity && !f.knownByCause).map((f) => f.invariant));
    for (const [severity, into] of [['violation', newByCause], ['warning', newShouldByCause]] as const) {
      const before = unexplained(p, severity);
      for (const id of unexplained(m, severity)) if (!before.has(id)) bump(into, id);
    }
    const ids = (row: typeof p) => new Set(row.findings.map((f) => f.invariant));
    const pIds = ids(p);
    for (const id of ids(m)) {
      if (!pIds.has(id)) continue;
      const msgs = (row: typeof p) => row.findings.filter((f) => f.invariant === id).map((f) => f.message).sort().join('\n');
      if (msgs(p) !== msgs(m)) bump(sameIdOtherMessage, id);
    }
  }
  return { window: n, exercised, findingsDiffer, counts, newByCause, newShouldByCause, sameIdOtherMessage, ...(firstExercised !== undefined && { firstExercised }) };
}

/** Runs `tasks` with at most `jobs` at a time, in order of start. */
async function pool(tasks: readonly (() => Promise<void>)[], jobs: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fmtMap = (m: Readonly<Record<string, number>>) =>
  Object.entries(m)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([id, n]) => `\`${id}\` (${n})`)
    .join(', ');

/** Invariants whose case count moved: new, clearly more or fewer (by 3 cases and 25 %), or gone. */
function changes(diff: CaseDiff): string[] {
  const out: string[] = [];
  for (const [id, c] of Object.entries(diff.counts).sort(([a], [b]) => a.localeCompare(b))) {
    const tag = c.severity === 'warning' ? ' (SHOULD)' : '';
    if (c.pristine === 0 && c.mutant > 0) out.push(`+${id}${tag} ${c.mutant}`);
    else if (c.mutant === 0 && c.pristine > 0) out.push(`−${id}${tag} ${c.pristine}→0`);
    else if (Math.abs(c.mutant - c.pristine) >= 3 && Math.abs(c.mutant - c.pristine) >= 0.25 * c.pristine) out.push(`${id}${tag} ${c.pristine}→${c.mutant}`);
  }
  return out;
}

/** Invariants a rate check would flag: at least 1.5 times as many cases, and 5 more. */
function rateRises(diff: CaseDiff): string[] {
  return Object.entries(diff.counts)
    .filter(([, c]) => c.mutant >= 1.5 * c.pristine && c.mutant - c.pristine >= 5)
    .map(([id, c]) => `\`${id}\`${c.severity === 'warning' ? ' (SHOULD)' : ''} ${c.pristine}→${c.mutant}`);
}

/** What the case comparison says would catch a surviving mutant. */
function wouldCatch(diff: CaseDiff | undefined): string {
  if (!diff) return '(no case comparison)';
  if (diff.exercised === 0) return `nothing: no trace or finding of the ${diff.window} cases changes`;
  const parts: string[] = [];
  if (Object.keys(diff.newByCause).length) parts.push(`known-by-cause: ${fmtMap(diff.newByCause)}`);
  if (Object.keys(diff.newShouldByCause).length) parts.push(`--fail-on should (by cause): ${fmtMap(diff.newShouldByCause)}`);
  const rates = rateRises(diff);
  if (rates.length) parts.push(`rate check: ${rates.join(', ')}`);
  if (parts.length === 0 && Object.keys(diff.sameIdOtherMessage).length) parts.push(`only finer ids: other messages under ${fmtMap(diff.sameIdOtherMessage)}`);
  if (parts.length > 0) return parts.join('; ');
  if (diff.findingsDiffer === 0) return `none of these: ${diff.exercised} case(s) change, none of their findings (a new rule, or cases that show the consequence)`;
  return `none of these: findings change in ${diff.findingsDiffer} case(s), yet none appears and none is reworded (a new rule)`;
}

function verdictCell(o: CheckOutcome | undefined): string {
  if (!o) return '–';
  if (o.verdict === 'error') return '**error**';
  return o.verdict === 'killed' ? 'killed' : '**survived**';
}

interface Report {
  readonly markdown: string;
  readonly unexplained: readonly string[];
  readonly stale: readonly string[];
}

function report(mutants: readonly Mutant[], saved: SavedResults, notes: Readonly<Record<string, SurvivorNote>>): Report {
  const { budgets } = saved;
  const byId = new Map(saved.mutants.map((r) => [r.id, r]));
  const label = (b: Budget) => (b.label === 'default' ? `default budget (${DEFAULT_RUNS} runs)` : `${b.label} runs`);
  const short = (b: Budget) => (b.label === 'default' ? 'the default budget' : `${b.label} runs`);
  const lines: string[] = [];

  lines.push('### Score', '');
  lines.push(
    '| budget | killed | survived | of which equivalent | errors | score (killed of the non-equivalent) | killed of all | wall time of the `check` runs |',
    '|---|---|---|---|---|---|---|---|',
  );
  const pct = (k: number, n: number) => (n > 0 ? `${((100 * k) / n).toFixed(0)} % (${k}/${n})` : '–');
  for (const b of budgets) {
    const mine = mutants.map((m) => byId.get(m.id));
    const outcome = (r: MutantResult | undefined) => r?.checks[b.label];
    const killed = mine.filter((r) => outcome(r)?.verdict === 'killed').length;
    const survivors = mine.filter((r) => outcome(r)?.verdict === 'survived');
    // A survivor shown equivalent (no program can tell it from the pristine SDK) is no miss: the usual score leaves it out.
    const equivalent = survivors.filter((r) => r && notes[r.id]?.cause === 'equivalent').length;
    const survived = survivors.length;
    const errors = mine.length - killed - survived;
    const wall = mine.reduce((t, r) => t + (outcome(r)?.wallMs ?? 0), 0);
    lines.push(`| ${label(b)} | ${killed} | ${survived} | ${equivalent} | ${errors} | ${pct(killed, killed + survived - equivalent)} | ${pct(killed, killed + survived)} | ${seconds(wall)} |`);
  }
  const ref = budgets.map((b) => [b, saved.pristine.checks[b.label]] as const);
  lines.push(
    '',
    `Reference: the pristine SDK ${ref.map(([b, o]) => (o ? `${o.verdict === 'survived' ? 'passes' : `**${o.verdict}**`} at ${label(b)} in ${seconds(o.wallMs)}` : '')).filter(Boolean).join(', ')}.`,
    '',
  );

  const windows = [...new Set(budgets.map((b) => b.runs))];
  lines.push('### Mutants', '');
  const head = ['mutant', 'file', 'family', ...budgets.map(label), 'killed by', `cases whose trace changes (of ${windows.join(' / ')})`, `findings against the pristine SDK (cases of ${DEFAULT_RUNS})`, 'time of `check`'];
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  for (const m of mutants) {
    const r = byId.get(m.id);
    const file = m.file.replace(/^dist\/esm\//, '');
    if (!r || r.patchError) {
      lines.push(`| \`${m.id}\` | ${file} | ${m.family} | ${budgets.map(() => '**patch error**').join(' | ')} | – | – | ${r?.patchError ?? 'not run'} | – |`);
      continue;
    }
    const outs = budgets.map((b) => r.checks[b.label]);
    const killers = [...new Set(outs.flatMap((o) => o?.killers ?? []))];
    const killedAt = budgets.filter((b) => r.checks[b.label]?.verdict === 'killed').map(short);
    const killerCell = killers.length ? killers.map((k) => `\`${k}\``).join(', ') + (killedAt.length < budgets.length ? ` (at ${killedAt.join(', ')})` : '') : '–';
    const exercised = windows.map((w) => r.diffs.find((d) => d.window === w)?.exercised ?? '?').join(' / ');
    const first = r.diffs.find((d) => d.window === DEFAULT_RUNS) ?? r.diffs[0];
    const errors = [...outs.filter((o) => o?.verdict === 'error').map((o) => `error: ${o!.detail}`), ...(r.casesError ? [r.casesError] : [])];
    const what = [...(first ? changes(first).map((c) => `\`${c}\``) : []), ...errors].join(', ') || 'the same';
    lines.push(`| \`${m.id}\` | ${file} | ${m.family} | ${outs.map(verdictCell).join(' | ')} | ${killerCell} | ${exercised} | ${what} | ${outs.map((o) => (o ? seconds(o.wallMs) : '–')).join(' / ')} |`);
  }
  lines.push(
    '',
    `"Cases whose trace changes": of the campaign's first ${windows.join(' and ')} cases, run without shrinking on the pristine SDK and on the mutant, how many give another trace hash or other findings (0: the bug is never exercised). "Findings": per invariant, in how many of the first ${DEFAULT_RUNS} cases it is found: \`+id n\` only with the mutant, \`id a→b\` a cases on the pristine SDK and b with the mutant (shown when they differ by 3 cases and 25 %), \`−id a→0\` gone with the mutant; (SHOULD) marks warnings, which never fail \`check\`. "Time" is the wall time of each \`check\`, shrinking included.`,
    '',
  );

  lines.push('### Survivors', '');
  lines.push(
    'Each survivor with the reason recorded in `mutants/survivors.json` after looking at it (`equivalent`: no program can tell it from the pristine SDK, left out of the score), then what the case comparison of `mutants/cases.ts` shows at each budget where it survives: findings the baseline does not explain by cause (by invariant, variant and features; clauses aside), new warnings, invariants found in at least 1.5 times as many cases (and 5 more), or only other messages under the same id.',
    '',
  );
  const unexplained: string[] = [];
  const stale: string[] = [];
  for (const m of mutants) {
    const r = byId.get(m.id);
    if (!r || r.patchError) continue;
    const survivedAt = budgets.filter((b) => r.checks[b.label]?.verdict === 'survived');
    const note = notes[m.id];
    if (survivedAt.length === 0) {
      if (note && budgets.every((b) => r.checks[b.label]?.verdict === 'killed')) stale.push(m.id);
      continue;
    }
    const killedAt = budgets.filter((b) => r.checks[b.label]?.verdict === 'killed');
    const head = `\`${m.id}\` (survives at ${survivedAt.map(short).join(' and ')}${killedAt.length ? `; killed at ${killedAt.map(short).join(', ')}` : ''})`;
    if (!note) unexplained.push(m.id);
    lines.push(`- ${head}: ${note ? `**${note.cause}**. ${note.why}` : '**not yet explained**: look at this survivor and record why in mutants/survivors.json.'}`);
    for (const b of survivedAt) lines.push(`  - would catch it at ${short(b)}: ${wouldCatch(r.diffs.find((d) => d.window === b.runs))}.`);
    const first = r.diffs.at(-1)?.firstExercised;
    if (first !== undefined) {
      lines.push(`  - first changed case: \`MCP_SIM_SDK=${relative(PROJECT_DIR, join(CACHE_DIR, m.id))} npx mcp-sim replay --seed ${saved.seed} --case ${first}\` (and without MCP_SIM_SDK for the pristine SDK).`);
    }
  }
  if (lines.at(-1) === '') lines.push('(none)');
  lines.push('');
  return { markdown: lines.join('\n'), unexplained, stale };
}

const BEGIN = '<!-- mutants:results:begin (written by npm run mutants; edit mutants/survivors.json for the reasons) -->';
const END = '<!-- mutants:results:end -->';

function writeDoc(markdown: string, when: string): string {
  const file = join(PROJECT_DIR, 'docs', 'mutation.md');
  const block = `${BEGIN}\n\n_Last run: ${when}._\n\n${markdown}\n${END}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const from = text.indexOf(BEGIN.slice(0, 30));
  const to = text.indexOf(END);
  if (from >= 0 && to > from) text = text.slice(0, from) + block + text.slice(to + END.length);
  else text = `${text.trimEnd()}\n\n## Results\n\n${block}\n`;
  writeFileSync(file, text);
  return relative(PROJECT_DIR, file);
}

/** Prints the tables of the saved results and, when complete, writes them to docs/mutation.md again. */
function present(index: ReturnType<typeof readMutantIndex>, mutants: readonly Mutant[], saved: SavedResults, notes: Readonly<Record<string, SurvivorNote>>): void {
  const complete = index.mutants.every((m) => saved.mutants.some((r) => r.id === m.id));
  const { markdown, unexplained, stale } = report(complete ? index.mutants : mutants, saved, notes);
  console.log(`\n${markdown}`);
  if (complete) console.log(`written to ${writeDoc(markdown, saved.when)}`);
  else console.log('(results for a part of the mutants only: docs/mutation.md left as it is)');
  if (unexplained.length) console.log(`survivors without a recorded reason: ${unexplained.join(', ')} (mutants/survivors.json)`);
  if (stale.length) console.log(`killed now, yet recorded as survivors: ${stale.join(', ')} (drop them from mutants/survivors.json)`);
}

async function main(): Promise<number> {
  const cli = parseCli();
  const index = readMutantIndex();
  const resultsFile = join(CACHE_DIR, 'results.json');
  const notesFile = join(MUTANTS_DIR, 'survivors.json');
  const notes = (existsSync(notesFile) ? JSON.parse(readFileSync(notesFile, 'utf8')) : {}) as Record<string, SurvivorNote>;
  if (cli.reportOnly) {
    // The tables again from the last run's results, after editing the reasons of the survivors.
    if (!existsSync(resultsFile)) throw new Error(`--report-only: no results yet (${relative(PROJECT_DIR, resultsFile)}); run npm run mutants first`);
    present(index, index.mutants, JSON.parse(readFileSync(resultsFile, 'utf8')) as SavedResults, notes);
    return 0;
  }
  const mutants = cli.filters.length ? index.mutants.filter((m) => cli.filters.some((f) => m.id === f || m.id.includes(f))) : index.mutants;
  if (mutants.length === 0) throw new Error(`--filter ${cli.filters.join(',')} matches no mutant of mutants/index.json`);
  const budgets: Budget[] = [
    { label: 'default', runs: DEFAULT_RUNS, args: [] },
    ...(cli.runs !== undefined && cli.runs !== DEFAULT_RUNS ? [{ label: String(cli.runs), runs: cli.runs, args: ['--runs', String(cli.runs)] }] : []),
  ];
  const caseRuns = Math.max(...budgets.map((b) => b.runs));

  console.log(`mutants: ${mutants.length} of ${index.sdk.name}@${index.sdk.version}, check at ${budgets.map((b) => b.label).join(' and ')}, cases compared over ${caseRuns}, ${cli.jobs} at a time`);
  console.log(`copies, check logs and --json reports under ${relative(PROJECT_DIR, CACHE_DIR)}/<id>/`);
  const copies = new Map<string, string>();
  const patchErrors = new Map<string, string>();
  for (const m of mutants) {
    try {
      copies.set(m.id, prepareMutant(m.id).project);
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      patchErrors.set(m.id, error.message);
      console.error(`PATCH ERROR ${error.message}`);
    }
  }

  const ids = [PRISTINE, ...copies.keys()];
  const checks = new Map<string, Record<string, CheckOutcome>>(ids.map((id) => [id, {}]));
  const tables = new Map<string, { table?: CaseTable; error?: string; wallMs: number }>();
  const total = ids.length * (budgets.length + 1);
  let done = 0;
  const line = (verdict: string, id: string, what: string, ms: number, note: string) => {
    done++;
    console.log(`[${String(done).padStart(String(total).length)}/${total}] ${verdict.padEnd(8)} ${id.padEnd(36)} ${what.padStart(9)} ${seconds(ms).padStart(8)}  ${note}`);
  };
  const started = Date.now();
  const tasks: (() => Promise<void>)[] = [];
  for (const budget of budgets) {
    for (const id of ids) {
      tasks.push(async () => {
        const o = await runCheck(id, copies.get(id), budget);
        checks.get(id)![budget.label] = o;
        const note = o.verdict === 'killed' ? `by ${o.killers.join(', ')}` : o.verdict === 'error' ? (o.detail ?? '') : id === PRISTINE ? '(reference)' : '';
        line(o.verdict, id, `check ${budget.label}`, o.wallMs, note);
      });
    }
  }
  for (const id of ids) {
    tasks.push(async () => {
      const t = await runCases(id, copies.get(id), caseRuns);
      tables.set(id, t);
      line(t.error ? 'error' : 'cases', id, `${caseRuns} cases`, t.wallMs, t.error ?? '');
    });
  }
  await pool(tasks, cli.jobs);

  const pristineTable = tables.get(PRISTINE)?.table;
  const windows = [...new Set(budgets.map((b) => b.runs))];
  const fresh: MutantResult[] = mutants.map((m) => {
    if (patchErrors.has(m.id)) return { id: m.id, checks: {}, diffs: [], patchError: patchErrors.get(m.id)! };
    const t = tables.get(m.id)!;
    const diffs = pristineTable && t.table ? windows.map((w) => compareCases(pristineTable, t.table!, w)) : [];
    const casesError = t.error ?? (pristineTable ? undefined : 'no pristine case table');
    return { id: m.id, checks: checks.get(m.id)!, diffs, casesMs: t.wallMs, ...(casesError && { casesError }) };
  });
  const pristine: MutantResult = { id: PRISTINE, checks: checks.get(PRISTINE)!, diffs: [], casesMs: tables.get(PRISTINE)?.wallMs ?? 0 };
  let when = `${new Date().toISOString().slice(0, 10)}, ${mutants.length} mutants, ${cli.jobs} jobs on ${availableParallelism()} cores, ${seconds(Date.now() - started)} in all`;

  // A filtered run replaces its mutants' results in the last run with the same budgets.
  const seed = pristineTable?.seed ?? 0;
  let saved: SavedResults = { when, seed, budgets, pristine, mutants: fresh };
  if (cli.filters.length > 0 && existsSync(resultsFile)) {
    const previous = JSON.parse(readFileSync(resultsFile, 'utf8')) as SavedResults;
    if (previous.budgets?.map((b) => b.label).join() === budgets.map((b) => b.label).join() && Array.isArray(previous.mutants)) {
      const rerun = new Set(fresh.map((r) => r.id));
      when = `${previous.when}; ${[...rerun].join(', ')} re-run ${when}`;
      saved = { when, seed, budgets, pristine, mutants: [...previous.mutants.filter((r) => !rerun.has(r.id)), ...fresh] };
    }
  }
  writeFileSync(resultsFile, JSON.stringify(saved, null, 2) + '\n');
  present(index, mutants, saved, notes);
  const errors = fresh.filter((r) => r.patchError || r.casesError || Object.values(r.checks).some((o) => o.verdict === 'error'));
  const pristineBad = budgets.filter((b) => pristine.checks[b.label]?.verdict !== 'survived');
  if (errors.length) console.log(`errors: ${errors.map((r) => r.id).join(', ')}`);
  if (pristineBad.length) console.log(`the pristine SDK does not pass check at ${pristineBad.map((b) => b.label).join(', ')}: the scores mean little until it does`);
  return errors.length > 0 || pristineBad.length > 0 ? 2 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`mutants: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
