import { readFileSync } from 'node:fs';

/** A `check --json` report without what may differ between two runs of one campaign: timings. */
export function untimedReport(file: string): Record<string, unknown> {
  const { wallMs: _w, runWallMs: _r, runsPerSecond: _s, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
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
