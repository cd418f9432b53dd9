#!/usr/bin/env node
// From a clone (src/ present) the CLI runs its TypeScript through tsx, so `npm install` needs no
// build step, unless dist/ is current (below); the installed package (src/ not shipped) runs the
// compiled JavaScript of dist/.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A reader that stops early (`mcp-sim check --help | head`) closes the pipe: that ends the output, not in a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// Colour only on a terminal (picocolors would also colour a CI log), and never with NO_COLOR.
if (!process.stdout.isTTY && process.env.FORCE_COLOR === undefined) process.env.NO_COLOR ??= '1';

// A clone whose dist/ was built from its src/ as it is now (npm test builds it first) runs dist/:
// the same code, without a second of tsx compiling it. MCP_SIM_FROM_SOURCE=1 always runs src/.
const hasSource = existsSync(new URL('../src/cli/main.ts', import.meta.url));
const fromSource = hasSource && (process.env.MCP_SIM_FROM_SOURCE === '1' || !(await distIsCurrent()));
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { main } = await import(fromSource ? '../src/cli/main.ts' : '../dist/cli/main.js');
process.exitCode = await main(process.argv);

async function distIsCurrent() {
  try {
    const stamp = JSON.parse(readFileSync(new URL('../dist/.source-stamp.json', import.meta.url), 'utf8'));
    const { newestSourceMtimeMs } = await import('./sourceStamp.mjs');
    return newestSourceMtimeMs(fileURLToPath(new URL('../src', import.meta.url))) <= stamp.newestSourceMtimeMs;
  } catch {
    return false;
  }
}
