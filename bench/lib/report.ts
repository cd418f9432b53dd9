/**
 * Turns suite results into the three outputs: terminal tables, `latest.json` and
 * `summary.md` (plus one SVG chart per suite).
 *
 * Why: the numbers are only useful compared: each SDK curve against its floor (ratio) and
 * against itself across N (growth exponent), and under `--compare` one SDK release against
 * another. All of that is derived here, in one place, from the raw points.
 */
import { costOf, classify, excessSlope, logLogSlope, ratios, tailSlope, type GrowthClass } from './growth.ts';
import { formatNs, logLogChart, type Series } from './svgChart.ts';
import type { Curve, Leak, SuiteResult } from './suite.ts';

export interface RunMeta {
  /** The exact command line that produced the results. */
  command: string;
  startedAt: string;
  durationSeconds: number;
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  /** 1-minute load average when the run started and ended: other work on the host. */
  loadAverage1m: { start: number; end: number };
  quick: boolean;
  sdkVersions: string[];
  /** The package(s) of each release, in `sdkVersions` order (absent in results written before 2.x could be benchmarked: the 1.x package). */
  sdkPackages?: string[];
  heapMethod: string;
  tinybench: string;
  costStatistic: string;
  /** What happens to garbage between samples. */
  gcPolicy: string;
  suiteSeconds: Record<string, number>;
}

export interface CurveAnalysis {
  suite: string;
  id: string;
  label: string;
  sdkVersion?: string;
  floorId?: string;
  op: string;
  slope?: number;
  tailSlope?: number;
  growth?: GrowthClass;
  /** Slope of log(cost / floor cost) on log N: growth beyond the floor's (all N). */
  excessSlope?: number;
  /** The same over the three largest N. */
  excessTailSlope?: number;
  /** Tail exponent >= 0.5 and tail excess over the floor >= 0.3: the SDK's own growth. */
  superLinearBeyondFloor?: boolean;
  ratioToFloor: { n: number; ratio: number }[];
}

export interface RunRecord {
  meta: RunMeta;
  analysis: CurveAnalysis[];
  suites: SuiteResult[];
}

function floorCurves(suites: readonly SuiteResult[]): Map<string, Curve> {
  const map = new Map<string, Curve>();
  for (const s of suites) for (const c of s.curves) if (c.sdkVersion === undefined) map.set(c.id, c);
  return map;
}

export function analyze(suites: readonly SuiteResult[]): CurveAnalysis[] {
  const floors = floorCurves(suites);
  const out: CurveAnalysis[] = [];
  for (const s of suites) {
    for (const c of s.curves) {
      const slope = logLogSlope(c.points);
      const tail = c.points.length > 3 ? tailSlope(c.points) : undefined;
      const floor = c.floorId ? floors.get(c.floorId) : undefined;
      const excess = floor ? excessSlope(c, floor) : undefined;
      const excessTail = floor ? excessSlope(c, floor, 3) : undefined;
      out.push({
        suite: s.name,
        id: c.id,
        label: c.label,
        op: c.op,
        ...(c.sdkVersion !== undefined ? { sdkVersion: c.sdkVersion } : {}),
        ...(c.floorId !== undefined ? { floorId: c.floorId } : {}),
        ...(slope !== undefined ? { slope } : {}),
        ...(tail !== undefined ? { tailSlope: tail } : {}),
        ...(classify(slope, tail) !== undefined ? { growth: classify(slope, tail)! } : {}),
        ...(excess !== undefined ? { excessSlope: excess } : {}),
        ...(excessTail !== undefined ? { excessTailSlope: excessTail } : {}),
        ...(floor ? { superLinearBeyondFloor: (tail ?? slope ?? 0) >= 0.5 && (excessTail ?? excess ?? 0) >= 0.3 } : {}),
        ratioToFloor: [...ratios(c, floor)].map(([n, ratio]) => ({ n, ratio })),
      });
    }
  }
  return out;
}

const fmtSlope = (s: number | undefined): string => (s === undefined ? '—' : `${s >= 0 ? '+' : ''}${s.toFixed(2)}`);
const fmtRatio = (r: number | undefined): string => (r === undefined ? '—' : `${r >= 100 ? r.toFixed(0) : r.toPrecision(3)}×`);
const fmtBytes = (b: number | undefined): string => (b === undefined ? '—' : `${Math.round(b).toLocaleString('en-US')}`);
const fmtN = (n: number): string => n.toLocaleString('en-US');

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
}

function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [pad(header, widths), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => pad(r, widths))].join('\n');
}

interface LeakGroup {
  where: string;
  field: string;
  maxSize: number;
  contexts: string[];
}

export function groupLeaks(leaks: readonly Leak[]): LeakGroup[] {
  const groups = new Map<string, LeakGroup>();
  for (const l of leaks) {
    const key = `${l.where}\u0000${l.field}`;
    const g = groups.get(key) ?? { where: l.where, field: l.field, maxSize: 0, contexts: [] };
    g.maxSize = Math.max(g.maxSize, l.size);
    if (!g.contexts.includes(l.context)) g.contexts.push(l.context);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** The terminal report: one table per suite result, then leaks. */
export function terminalReport(run: RunRecord): string {
  const lines: string[] = [];
  const byKey = new Map(run.analysis.map((a) => [`${a.id}@${a.sdkVersion ?? ''}`, a]));
  for (const s of run.suites) {
    lines.push('', `== ${s.name}${s.sdkVersion ? ` (SDK ${s.sdkVersion})` : ''}: ${s.description}`);
    if (s.skipped) {
      lines.push(`   skipped: ${s.skipped}`);
      continue;
    }
    if (s.curves.length === 0) {
      for (const note of s.notes) lines.push(`   ${note}`);
      continue;
    }
    const rows: string[][] = [];
    for (const c of s.curves) {
      const a = byKey.get(`${c.id}@${c.sdkVersion ?? ''}`);
      for (const p of c.points) {
        const ratio = a?.ratioToFloor.find((r) => r.n === p.n)?.ratio;
        rows.push([c.label, fmtN(p.n), formatNs(p.p50NsPerOp), formatNs(p.nsPerOp), `±${p.rmePct.toFixed(1)}%`, String(p.samples), fmtBytes(p.heapBytesPerInFlight), fmtRatio(ratio)]);
      }
      const excess = a?.excessSlope === undefined ? '' : `; beyond floor ${fmtSlope(a.excessSlope)} (tail ${fmtSlope(a.excessTailSlope)})`;
      rows.push([`  └ exponent ${fmtSlope(a?.slope)} (tail ${fmtSlope(a?.tailSlope)}): ${a?.growth ?? '—'}${excess}`, '', '', '', '', '', '', '']);
    }
    lines.push(textTable(['curve', 'N', 'median/op', 'mean/op', 'rme', 'samples', 'heap B/in-flight', '× floor'], rows));
    const leaks = groupLeaks(s.leaks);
    lines.push(leaks.length === 0 ? 'leaks: none' : `LEAKS: ${leaks.map((l) => `${l.where} ${l.field} (up to ${l.maxSize} entries, ${l.contexts.length} runs)`).join('; ')}`);
    for (const note of s.notes) lines.push(`note: ${note}`);
  }
  const cmp = compareTable(run);
  if (cmp !== undefined) lines.push('', '== compare', cmp.text);
  return lines.join('\n');
}

/** Side-by-side costs of the same SDK curve under two versions (B / A). */
export function compareTable(run: RunRecord): { text: string; markdown: string } | undefined {
  const versions = run.meta.sdkVersions;
  if (versions.length < 2) return undefined;
  const [a, b] = versions as [string, string];
  const curves = run.suites.flatMap((s) => s.curves);
  const rows: string[][] = [];
  for (const ca of curves.filter((c) => c.sdkVersion === a)) {
    const cb = curves.find((c) => c.sdkVersion === b && c.id === ca.id);
    if (cb === undefined) continue;
    for (const pa of ca.points) {
      const pb = cb.points.find((p) => p.n === pa.n);
      if (pb === undefined) continue;
      rows.push([ca.id.replace(/^sdk\//, ''), fmtN(pa.n), formatNs(costOf(pa)), formatNs(costOf(pb)), fmtRatio(costOf(pb) / costOf(pa))]);
    }
  }
  const header = ['path', 'N', `${a} median/op`, `${b} median/op`, `${b} / ${a}`];
  return {
    text: textTable(header, rows),
    markdown: [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n'),
  };
}

/** One chart per suite: its curves, plus the floor curves they are compared to (dashed). */
export async function suiteCharts(run: RunRecord): Promise<Map<string, string>> {
  const floors = floorCurves(run.suites);
  const charts = new Map<string, string>();
  const names = [...new Set(run.suites.filter((s) => !s.skipped && s.curves.length > 0).map((s) => s.name))];
  for (const name of names) {
    const results = run.suites.filter((s) => s.name === name);
    const curves = results.flatMap((s) => s.curves);
    const series: Series[] = curves.map((c) => ({ label: c.label, points: c.points.map((p) => ({ x: p.n, y: costOf(p) })), dashed: c.sdkVersion === undefined }));
    if (results.every((s) => s.sdkVersion !== undefined)) {
      for (const floorId of new Set(curves.map((c) => c.floorId).filter((id): id is string => id !== undefined))) {
        const f = floors.get(floorId);
        if (f) series.push({ label: f.label, points: f.points.map((p) => ({ x: p.n, y: costOf(p) })), dashed: true });
      }
    }
    const meanings = [...new Set(curves.map((c) => c.nMeaning))];
    charts.set(
      name,
      await logLogChart({
        title: `${name}: cost per operation against N`,
        subtitle: `${results[0]!.description} — median per op; dashed = floor`,
        xLabel: meanings.length === 0 ? 'N' : `N = ${meanings.join(' | ')}`,
        yLabel: 'cost per operation',
        series,
      }),
    );
  }
  return charts;
}

/** The Markdown summary committed next to latest.json. */
export function summaryMarkdown(run: RunRecord, chartFiles: Map<string, string>): string {
  const m = run.meta;
  const md: string[] = [];
  md.push('# mcp-sim correlation benchmarks', '');
  md.push(`Produced by: \`${m.command}\``, '');
  md.push(
    `- started ${m.startedAt}, took ${m.durationSeconds.toFixed(0)} s${m.quick ? ' (**--quick**: rough picture only)' : ''}`,
    `- SDK: ${m.sdkVersions.map((v, i) => `${m.sdkPackages?.[i] ?? '@modelcontextprotocol/sdk'} ${v}`).join(', ')}; Node ${m.node} on ${m.platform}, ${m.cpus} × ${m.cpuModel}; tinybench ${m.tinybench}`,
    `- cost per operation: ${m.costStatistic}`,
    `- heap per in-flight request: ${m.heapMethod}`,
    `- garbage between samples: ${m.gcPolicy}`,
    '- growth exponent: least-squares slope of log(cost per op) against log N over all points ("tail": the three largest N). ' +
      '≈ 0 means O(1) per op (total O(N)); ≈ 1 means O(N) per op (total O(N²)). Verdict: < 0.2 O(1), < 0.5 mild growth, else grows with N.',
    '- × floor: SDK median cost per op divided by the floor\'s (bench/lib/floor.ts: a Map keyed by id with timeout and progress records, real setTimeout/clearTimeout) at the same N, measured in the same process.',
    `- the host is a shared ${m.cpus}-core VM (1-minute load average ${m.loadAverage1m.start.toFixed(1)} at the start, ${m.loadAverage1m.end.toFixed(1)} at the end): absolute numbers drift by tens of percent between runs; compare ratios and exponents.`,
    '',
  );

  md.push('## Overview', '');
  md.push('| suite | path | per | N range | exponent | tail exponent | verdict | exponent beyond floor (tail) | × floor (smallest N → largest N) | heap B/in-flight (largest N probed) |');
  md.push('|---|---|---|---|---|---|---|---|---|---|');
  const curveOf = (a: CurveAnalysis): Curve | undefined =>
    run.suites.flatMap((s) => s.curves).find((c) => c.id === a.id && c.sdkVersion === a.sdkVersion);
  for (const a of run.analysis) {
    const c = curveOf(a);
    if (c === undefined || c.points.length === 0) continue;
    const ns = c.points.map((p) => p.n);
    const withHeap = c.points.filter((p) => p.heapBytesPerInFlight !== undefined);
    const lastHeap = withHeap[withHeap.length - 1];
    const r = a.ratioToFloor;
    const ratioText = r.length === 0 ? '—' : `${fmtRatio(r[0]!.ratio)} → ${fmtRatio(r[r.length - 1]!.ratio)}`;
    const verdict = a.superLinearBeyondFloor ? `**${a.growth}**` : (a.growth ?? '—');
    const excess = a.excessSlope === undefined ? '—' : `${fmtSlope(a.excessSlope)} (${fmtSlope(a.excessTailSlope)})`;
    md.push(
      `| ${a.suite} | ${a.label} | ${a.op} | ${fmtN(Math.min(...ns))}–${fmtN(Math.max(...ns))} | ${fmtSlope(a.slope)} | ${fmtSlope(a.tailSlope)} | ${verdict} | ${excess} | ${ratioText} | ${lastHeap === undefined ? '—' : `${fmtBytes(lastHeap.heapBytesPerInFlight)} (N=${fmtN(lastHeap.n)})`} |`,
    );
  }
  md.push('');

  md.push('## Findings', '');
  const sdkCurves = run.analysis.filter((a) => a.sdkVersion !== undefined);
  const beyond = sdkCurves.filter((a) => a.superLinearBeyondFloor === true);
  const growingLikeFloor = sdkCurves.filter((a) => a.growth !== 'O(1) per op' && a.growth !== undefined && a.superLinearBeyondFloor !== true);
  const flat = sdkCurves.filter((a) => a.growth === 'O(1) per op');
  const floorsGrowing = run.analysis.filter((a) => a.sdkVersion === undefined && a.id.startsWith('floor/') && a.growth !== 'O(1) per op' && a.growth !== undefined);
  md.push(
    beyond.length === 0
      ? '- No SDK path grows faster than linearly in total beyond what the floor does (no path with tail exponent ≥ 0.5 and tail excess over the floor ≥ 0.3).'
      : `- **Super-linear in total** (cost per op grows with N, and faster than the floor's): ${beyond.map((a) => `${a.label} (exponent ${fmtSlope(a.slope)}, tail ${fmtSlope(a.tailSlope)}, beyond floor ${fmtSlope(a.excessSlope)} / tail ${fmtSlope(a.excessTailSlope)}; × floor ${fmtRatio(a.ratioToFloor[0]?.ratio)} → ${fmtRatio(a.ratioToFloor[a.ratioToFloor.length - 1]?.ratio)})`).join('; ')}.`,
  );
  if (growingLikeFloor.length > 0) {
    md.push(
      `- Growth shared with the floor (GC work and cache misses rising with the live heap, not the SDK's algorithm) or within noise: ${growingLikeFloor.map((a) => `${a.label} (${fmtSlope(a.slope)}, tail ${fmtSlope(a.tailSlope)}, beyond floor ${fmtSlope(a.excessSlope)} / tail ${fmtSlope(a.excessTailSlope)})`).join('; ')}.`,
    );
  }
  if (flat.length > 0) md.push(`- O(1) per op: ${flat.map((a) => `${a.label} (${fmtSlope(a.slope)}, tail ${fmtSlope(a.tailSlope)})`).join('; ')}.`);
  if (floorsGrowing.length > 0) {
    md.push(
      `- The floor itself is not flat everywhere: ${floorsGrowing.map((a) => `${a.label} (${fmtSlope(a.slope)}, tail ${fmtSlope(a.tailSlope)})`).join('; ')}. Its per-op work is O(1), so this is the price of a large live heap (young-generation survivors, promotion, cache misses), which every path pays; hence the "beyond floor" exponent.`,
    );
  }
  const allLeaks = run.suites.flatMap((s) => groupLeaks(s.leaks).map((g) => ({ suite: s, g })));
  md.push(
    allLeaks.length === 0
      ? '- Leaks: none. Every correlation map read was empty after every run (fields absent in the SDK version are listed under each suite).'
      : `- **Leaks**: ${allLeaks.map(({ suite, g }) => `${suite.name}${suite.sdkVersion ? ` (SDK ${suite.sdkVersion})` : ''}: \`${g.field}\` on ${g.where} kept up to ${fmtN(g.maxSize)} entries after the run (${g.contexts.length} runs, e.g. ${g.contexts[0]})`).join('; ')}.`,
  );
  md.push('');

  const cmp = compareTable(run);
  if (cmp !== undefined) md.push('## Compare', '', cmp.markdown, '');

  for (const name of [...new Set(run.suites.map((s) => s.name))]) {
    const results = run.suites.filter((s) => s.name === name);
    md.push(`## ${name}`, '', results[0]!.description, '');
    const file = chartFiles.get(name);
    if (file) md.push(`![${name}](${file})`, '');
    for (const s of results) {
      if (s.skipped) {
        md.push(`- ${s.sdkVersion ? `SDK ${s.sdkVersion}: ` : ''}skipped: ${s.skipped}`, '');
        continue;
      }
      if (s.curves.length > 0) md.push('| path | N | median/op | mean/op | rme | samples | heap B/in-flight | peak in flight | × floor |', '|---|---|---|---|---|---|---|---|---|');
      for (const c of s.curves) {
        const a = run.analysis.find((x) => x.id === c.id && x.sdkVersion === c.sdkVersion);
        for (const p of c.points) {
          const ratio = a?.ratioToFloor.find((r) => r.n === p.n)?.ratio;
          md.push(
            `| ${c.label} | ${fmtN(p.n)} | ${formatNs(p.p50NsPerOp)} | ${formatNs(p.nsPerOp)} | ±${p.rmePct.toFixed(1)}% | ${p.samples} | ${fmtBytes(p.heapBytesPerInFlight)} | ${p.peakInFlight === undefined ? '—' : fmtN(p.peakInFlight)} | ${fmtRatio(ratio)} |`,
          );
        }
      }
      if (s.curves.length > 0) md.push('');
      const leaks = groupLeaks(s.leaks);
      md.push(leaks.length === 0 ? '- leaks: none' : `- **leaks**: ${leaks.map((l) => `\`${l.field}\` on ${l.where}: up to ${fmtN(l.maxSize)} entries left after ${l.contexts.length} runs`).join('; ')}`);
      for (const note of s.notes) md.push(`- ${note}`);
      md.push('');
    }
  }
  return md.join('\n');
}
