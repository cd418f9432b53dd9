import { replayFileCommand } from '../options/replayCaseCommand.ts';
import { REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { TOOL } from '../util/toolVersion.ts';
import type { MatrixCampaign, MatrixColumn } from './causeMatrix.ts';
import { columnLabels, matrixRows, type ReplayFileIndex } from './matrixTable.ts';

/**
 * The matrix as `matrix --json` writes it (`kind: "matrix"` of schemas/report.schema.json): the
 * campaign, a column per release (what it ran, or why it cannot be driven) and a row per cause
 * with a cell per column, each violated cell with its replay file and command.
 */
export function matrixJson(columns: readonly MatrixColumn[], campaign: MatrixCampaign, files: ReplayFileIndex = []): Record<string, unknown> {
  const labels = columnLabels(columns);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'matrix',
    tool: TOOL,
    options: { seed: campaign.seed, runs: campaign.runs, workload: campaign.workload },
    columns: columns.map((c, i) =>
      c.status === 'ran'
        ? {
            release: labels[i],
            choice: c.choice,
            status: 'ran',
            sdk: { name: c.sdk.name, version: c.sdk.version },
            profiles: c.profiles,
            leftOut: c.leftOut,
            limits: c.limits,
            runs: c.runs,
            durationMs: c.wallMs,
          }
        : { release: labels[i], choice: c.choice, status: 'cannot', ...(c.sdk && { sdk: { name: c.sdk.name, version: c.sdk.version } }), reason: c.reason },
    ),
    rows: matrixRows(columns).map((row) => ({
      cause: row.key,
      invariant: row.invariant,
      ...(row.clause !== undefined && { clause: row.clause }),
      variant: row.variant,
      shape: row.shape,
      cells: row.cells.map((cell, i) => {
        if (cell.status !== 'violated') return cell;
        const file = files[i]?.get(row.key);
        const column = columns[i]!;
        return {
          status: 'violated',
          runs: cell.runs,
          share: cell.share,
          message: cell.cause.explanation,
          ...(file && { replay: { file, command: replayFileCommand(file, column.choice === 'installed' ? undefined : column.choice) } }),
        };
      }),
    })),
  };
}
