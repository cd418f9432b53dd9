import { join } from 'node:path';
import { replayFile } from '../campaign/replayFile.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import type { MatrixCampaign, MatrixColumn } from './causeMatrix.ts';
import type { ReplayFileIndex } from './matrixTable.ts';

/** A file name for a cause: its key with the characters a path cannot hold replaced. */
export const causeFileName = (key: string) => `${key.replace(/[^A-Za-z0-9.+-]+/g, '_')}.json`;

/**
 * Writes each violated cell's minimal counterexample as a replay file, one folder per column
 * (`<dir>/<position>-<version>/`), made with that release, so `mcp-sim replay FILE --sdk <release>`
 * runs it there. Returns where each went.
 */
export function writeMatrixReplayFiles(columns: readonly MatrixColumn[], campaign: MatrixCampaign, dir: string): ReplayFileIndex {
  return columns.map((c, i) => {
    const files = new Map<string, string>();
    if (c.status !== 'ran') return files;
    const folder = join(dir, `${i + 1}-${c.sdk.version}`);
    for (const cause of c.causes) {
      const file = join(folder, causeFileName(cause.key));
      const caseIndex = cause.measured?.runsToDetect;
      const from = caseIndex !== undefined && caseIndex > 0 ? { seed: campaign.seed, caseIndex: caseIndex - 1, workload: campaign.workload } : undefined;
      writeFileAtomic(file, JSON.stringify(replayFile(cause.invariant, cause.counterexample, c.sdk, from), null, 2) + '\n', { mkdir: true });
      files.set(cause.key, file);
    }
    return files;
  });
}
