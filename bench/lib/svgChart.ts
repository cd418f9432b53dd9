/**
 * A dependency-free log-log line chart rendered to SVG text.
 *
 * Why: one chart per suite (cost per operation against N) is all the report needs; writing
 * the SVG directly keeps the output deterministic (no timestamps, no fonts to embed) and
 * adds no dependency to the project.
 */

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
  /** Formats a y value (nanoseconds here) for tick labels. */
  formatY?: (y: number) => string;
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

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

/** Greedy word wrap to lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line.length > 0 ? `${line} ${word}` : word;
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

function formatCount(n: number): string {
  return n >= 1000 ? n.toLocaleString('en-US') : String(n);
}

/** Decade ticks covering [lo, hi]; with fewer than 3 decades, adds 2x and 5x ticks. */
function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  const first = Math.floor(Math.log10(lo));
  const last = Math.ceil(Math.log10(hi));
  const steps = last - first <= 2 ? [1, 2, 5] : [1];
  for (let e = first; e <= last; e++) {
    for (const m of steps) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(v);
    }
  }
  return ticks;
}

export function logLogChart(spec: ChartSpec): string {
  const formatY = spec.formatY ?? formatNs;
  const all = spec.series.flatMap((s) => s.points).filter((p) => p.x > 0 && p.y > 0);
  const width = 900;
  const legendRows = spec.series.length;
  const subtitleLines = wrap(spec.subtitle ?? '', 125);
  const plot = { left: 90, top: 50 + subtitleLines.length * 16 + 12, width: 770, height: 380 };
  const height = plot.top + plot.height + 60 + legendRows * 20 + 10;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${plot.left}" y="28" font-size="16" font-weight="bold">${escape(spec.title)}</text>`);
  subtitleLines.forEach((line, i) => out.push(`<text x="${plot.left}" y="${48 + i * 16}" fill="#555555">${escape(line)}</text>`));
  if (all.length === 0) {
    out.push(`<text x="${plot.left}" y="${plot.top + 20}">no data</text></svg>`);
    return out.join('\n');
  }
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const xLo = Math.min(...xs);
  const xHi = Math.max(...xs) === xLo ? xLo * 10 : Math.max(...xs);
  // Pad y to whole decades so the lines never touch the frame.
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...ys)));
  const yHi = 10 ** Math.ceil(Math.log10(Math.max(...ys) * 1.0001));
  const sx = (x: number): number => plot.left + ((Math.log10(x) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo))) * plot.width;
  const sy = (y: number): number => plot.top + plot.height - ((Math.log10(y) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * plot.height;

  out.push(`<g stroke="#e5e5e5" stroke-width="1">`);
  for (const t of logTicks(yLo, yHi)) out.push(`<line x1="${plot.left}" x2="${plot.left + plot.width}" y1="${sy(t).toFixed(1)}" y2="${sy(t).toFixed(1)}"/>`);
  for (const t of logTicks(xLo, xHi)) out.push(`<line y1="${plot.top}" y2="${plot.top + plot.height}" x1="${sx(t).toFixed(1)}" x2="${sx(t).toFixed(1)}"/>`);
  out.push(`</g>`);
  out.push(`<rect x="${plot.left}" y="${plot.top}" width="${plot.width}" height="${plot.height}" fill="none" stroke="#333333"/>`);
  for (const t of logTicks(yLo, yHi)) {
    out.push(`<text x="${plot.left - 8}" y="${(sy(t) + 4).toFixed(1)}" text-anchor="end">${escape(formatY(t))}</text>`);
  }
  for (const t of logTicks(xLo, xHi)) {
    out.push(`<text x="${sx(t).toFixed(1)}" y="${plot.top + plot.height + 18}" text-anchor="middle">${escape(formatCount(t))}</text>`);
  }
  out.push(`<text x="${plot.left + plot.width / 2}" y="${plot.top + plot.height + 40}" text-anchor="middle">${escape(spec.xLabel)} (log)</text>`);
  out.push(
    `<text transform="translate(22 ${plot.top + plot.height / 2}) rotate(-90)" text-anchor="middle">${escape(spec.yLabel)} (log)</text>`,
  );

  spec.series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const pts = s.points.filter((p) => p.x > 0 && p.y > 0).sort((a, b) => a.x - b.x);
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    if (pts.length > 1) {
      const d = pts.map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)} ${sy(p.y).toFixed(1)}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    }
    for (const p of pts) {
      out.push(`<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3.5" fill="${s.dashed ? '#ffffff' : color}" stroke="${color}" stroke-width="1.5"/>`);
    }
    const ly = plot.top + plot.height + 62 + i * 20;
    out.push(`<line x1="${plot.left}" x2="${plot.left + 30}" y1="${ly - 4}" y2="${ly - 4}" stroke="${color}" stroke-width="2"${dash}/>`);
    out.push(`<text x="${plot.left + 38}" y="${ly}">${escape(s.label)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
