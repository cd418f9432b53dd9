#!/usr/bin/env node
// From a clone (src/ present) the CLI runs its TypeScript through tsx, so `npm install` needs no
// build step; the installed package (src/ not shipped) runs the compiled JavaScript of dist/.
import { existsSync } from 'node:fs';

// Colour only on a terminal (picocolors would also colour a CI log), and never with NO_COLOR.
if (!process.stdout.isTTY && process.env.FORCE_COLOR === undefined) process.env.NO_COLOR ??= '1';

const fromSource = existsSync(new URL('../src/cli/main.ts', import.meta.url));
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { main } = await import(fromSource ? '../src/cli/main.ts' : '../dist/cli/main.js');
process.exitCode = await main(process.argv);
