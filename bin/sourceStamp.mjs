// Whether a clone's compiled dist/ is current: the newest modification time of src/, written by
// scripts/build.mjs into dist/.source-stamp.json and compared by bin/mcp-sim.js at start (a few
// hundred stat calls: milliseconds, against about a second for tsx to compile the source).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest mtime (ms) of any file below `dir`. */
export function newestSourceMtimeMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const ms = statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs;
    if (ms > newest) newest = ms;
  }
  return newest;
}
