import { readFileSync } from 'node:fs';

/**
 * A `check --json` report without what may differ between two runs of one campaign: timings, and
 * where each run wrote its replay files (each test gives its own `--out`).
 */
export function untimedReport(file: string): Record<string, unknown> {
  const { wallMs: _w, runWallMs: _r, runsPerSecond: _s, durationMs: _d, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  for (const key of ['violations', 'warnings', 'notes']) {
    const list = rest[key] as { replay?: { file?: string; fileCommand?: string } }[] | undefined;
    for (const f of list ?? []) {
      if (f.replay) {
        delete f.replay.file;
        delete f.replay.fileCommand;
      }
    }
  }
  return rest;
}

/** Printed report lines without timings, the given folders, and the option lines (which name workers, shards, files). */
export function reportBody(stdout: string, ...folders: string[]): string[] {
  let text = stdout.replace(/in [\d.]+ s \(\d+ runs\/s\)/g, 'in T s (R runs/s)');
  for (const f of folders) text = text.split(f).join('<out>');
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^\d+ runs in /.test(l));
  return lines.slice(start);
}
