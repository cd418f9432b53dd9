import type { VegaLiteSpec } from '../report/vegaChart.ts';
import type { MatrixColumn } from './causeMatrix.ts';
import { columnLabels, matrixRows } from './matrixTable.ts';

/** One cell of the heat map's data: a (cause, release) pair, its status and share of runs violated. */
export interface HeatMapCell {
  readonly cause: string;
  readonly release: string;
  readonly status: 'violated' | 'clean' | 'not-run';
  /** Share of the release's runs the cause broke (violated cells only). */
  readonly share?: number;
  readonly runs?: number;
}

/** The heat map's data, a cell per (row, column): what the spec plots and a test can read. */
export function heatMapCells(columns: readonly MatrixColumn[]): HeatMapCell[] {
  const labels = columnLabels(columns);
  return matrixRows(columns).flatMap((row) =>
    row.cells.map((cell, i) => ({
      cause: row.key,
      release: labels[i]!,
      status: cell.status,
      ...(cell.status === 'violated' && { share: cell.share, runs: cell.runs }),
    })),
  );
}

/**
 * The matrix as a Vega-Lite heat map: rows (invariant, cause), columns releases in the order
 * run; colour is the share of runs violated, a clean cell stays white, a cell the release did not
 * run is grey with a diagonal mark (so "not run" never reads as "clean").
 */
export function heatMapSpec(columns: readonly MatrixColumn[], title: string): VegaLiteSpec {
  const labels = columnLabels(columns);
  const values = heatMapCells(columns);
  const rows = [...new Set(values.map((v) => v.cause))];
  const x = { field: 'release', type: 'ordinal', sort: labels, title: 'release', axis: { labelAngle: -45, orient: 'top' } };
  const y = { field: 'cause', type: 'nominal', sort: rows, title: null, axis: { labelLimit: 520 } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    background: 'white',
    data: { values },
    width: { step: 44 },
    height: { step: 16 },
    layer: [
      // Every cell: white when clean, grey when not run, a frame around each.
      {
        mark: { type: 'rect', stroke: '#ddd', strokeWidth: 0.5 },
        encoding: { x, y, fill: { condition: { test: "datum.status === 'not-run'", value: '#bbb' }, value: 'white' } },
      },
      // "Not run": a diagonal, so it reads as missing even in grey print.
      {
        transform: [{ filter: "datum.status === 'not-run'" }],
        mark: { type: 'text', text: '╱', color: '#777', fontSize: 14 },
        encoding: { x, y },
      },
      // Violated: the share of runs, on a sequential scale from 0.
      {
        transform: [{ filter: "datum.status === 'violated'" }],
        mark: { type: 'rect' },
        encoding: {
          x,
          y,
          color: { field: 'share', type: 'quantitative', title: 'share of runs violated', scale: { scheme: 'oranges', domainMin: 0 } },
          tooltip: [{ field: 'cause' }, { field: 'release' }, { field: 'runs' }, { field: 'share', format: '.1%' }],
        },
      },
    ],
  };
}
