/**
 * Log-log line charts of cost per operation against N, rendered to SVG by Vega-Lite
 * (`src/report/vegaChart.ts`, which the version matrix's heat map shares).
 */
import type { TopLevelSpec } from 'vega-lite';
import { renderVegaLite } from '../../src/report/vegaChart.ts';

export interface Series {
  label: string;
  points: { x: number; y: number }[];
  /** Dashed line: reference curves (the floor). */
  dashed?: boolean;
}

export interface ChartSpec {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
}

/** Formats nanoseconds as ns / µs / ms / s with at most 3 significant digits. */
export function formatNs(ns: number): string {
  const units: [number, string][] = [
    [1e9, 's'],
    [1e6, 'ms'],
    [1e3, 'µs'],
    [1, 'ns'],
  ];
  for (const [scale, unit] of units) {
    if (Math.abs(ns) >= scale || scale === 1) return `${Number((ns / scale).toPrecision(3))} ${unit}`;
  }
  return `${ns} ns`;
}

/** One chart: every series as a line with points, both axes logarithmic, y in µs. */
export async function logLogChart(spec: ChartSpec): Promise<string> {
  const values = spec.series.flatMap((s) =>
    s.points.filter((p) => p.x > 0 && p.y > 0).map((p) => ({ series: s.label, n: p.x, us: p.y / 1000, floor: Boolean(s.dashed) })),
  );
  const chart: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: spec.title, ...(spec.subtitle && { subtitle: spec.subtitle }) },
    width: 640,
    height: 360,
    background: 'white',
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'n', type: 'quantitative', scale: { type: 'log' }, title: spec.xLabel },
      y: { field: 'us', type: 'quantitative', scale: { type: 'log' }, title: `${spec.yLabel} (µs)` },
      color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'bottom', columns: 2, labelLimit: 400 } },
      strokeDash: { field: 'floor', type: 'nominal', legend: null, scale: { domain: [false, true], range: [[1, 0], [6, 4]] } },
    },
  };
  const rendered = await renderVegaLite(chart as unknown as Record<string, unknown>);
  if ('unavailable' in rendered) throw new Error(`bench charts: ${rendered.unavailable}`);
  return rendered.svg;
}
