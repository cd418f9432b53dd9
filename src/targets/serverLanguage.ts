import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * The languages whose servers mcp-sim gives advice for in their own terms (`src/report/
 * languageAdvice.ts`): what an author reads is the fix in the language they wrote, not the
 * TypeScript SDK's `extra.signal`.
 */
export const SERVER_LANGUAGES = ['python', 'go', 'rust', 'java', 'typescript'] as const;
export type ServerLanguage = (typeof SERVER_LANGUAGES)[number];

/** Programs that start a server of one language whatever their arguments (a launcher, a runner, an interpreter). */
const PROGRAMS: readonly (readonly [RegExp, ServerLanguage])[] = [
  [/^(python[\d.]*|pypy[\d.]*|uv|uvx|pipx|poetry|pipenv|pdm|hatch|rye|uvicorn|gunicorn|hypercorn|fastmcp|mcp)$/, 'python'],
  [/^go$/, 'go'],
  [/^cargo$/, 'rust'],
  [/^(java|mvn|mvnw|gradle|gradlew|jbang)$/, 'java'],
  [/^(node|nodejs|tsx|ts-node|npx|bun|bunx|deno|pnpm|yarn|npm)$/, 'typescript'],
];

/** A file an argument names, by its extension. */
const EXTENSIONS: readonly (readonly [RegExp, ServerLanguage])[] = [
  [/\.py$/, 'python'],
  [/\.go$/, 'go'],
  [/\.rs$/, 'rust'],
  [/\.(jar|java|kt)$/, 'java'],
  [/\.(m|c)?[jt]s$/, 'typescript'],
];

/** Words that run the next words: `env A=1 exec nice python …`. */
const PASS_THROUGH = /^(env|exec|nice|nohup|stdbuf|time|command)$/;

/** How much of a native binary is read for its toolchain's marks (Go's build info, Rust's panic paths). */
const BINARY_BYTES_MAX = 64 * 1024 * 1024;

/** Words of a shell line, quotes honoured (enough for a start command: no expansion, no operators). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  return words;
}

/**
 * The language of the server `command` starts (run in `cwd`), as an author would tell it: the
 * program (`python`, `uv run`, `go run`, `cargo run`, `java -jar`, `node`, `npx tsx`), else a
 * file it is given (`server.py`, `app.jar`, `index.js`), else the program itself: a script's
 * `#!` line, or a native binary's toolchain (Go writes its build info into every binary, Rust
 * its standard library's paths). Undefined when nothing tells.
 */
export function languageOfCommand(command: string | readonly string[], cwd?: string): ServerLanguage | undefined {
  let words = typeof command === 'string' ? shellWords(command) : [...command];
  // `sh -c "…"`: the line the shell runs.
  if (words.length >= 3 && /^(ba|da|z)?sh$/.test(basename(words[0]!)) && words[1] === '-c') words = shellWords(words[2]!);
  while (words.length > 0 && (PASS_THROUGH.test(basename(words[0]!)) || /^\w+=/.test(words[0]!))) words.shift();
  const [program, ...args] = words;
  if (program === undefined) return undefined;
  for (const [pattern, language] of PROGRAMS) if (pattern.test(basename(program))) return language;
  for (const word of [program, ...args]) for (const [pattern, language] of EXTENSIONS) if (pattern.test(word)) return language;
  if (/(^|\/)target\/(debug|release)\//.test(program)) return 'rust';
  return languageOfFile(located(program, cwd));
}

/** `program` as a file: a path (relative to `cwd`), or a bare name looked up on PATH. */
function located(program: string, cwd: string | undefined): string | undefined {
  if (program.includes('/')) return isAbsolute(program) ? program : resolve(cwd ?? process.cwd(), program);
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/** A script's language by its `#!` line; a native binary's by its toolchain's marks. */
function languageOfFile(file: string | undefined): ServerLanguage | undefined {
  if (file === undefined) return undefined;
  let fd: number | undefined;
  try {
    if (!statSync(file).isFile()) return undefined;
    fd = openSync(file, 'r');
    const head = Buffer.alloc(256);
    const n = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, n).toString('latin1');
    if (text.startsWith('#!')) {
      const line = text.slice(2).split('\n')[0]!.trim();
      return languageOfCommand([...shellWords(line), file]);
    }
    const size = Math.min(statSync(file).size, BINARY_BYTES_MAX);
    const body = Buffer.alloc(size);
    readSync(fd, body, 0, size, 0);
    if (body.includes('\xff Go buildinf:', 0, 'latin1') || body.includes('go.buildid', 0, 'latin1')) return 'go';
    if (body.includes('/rustc/', 0, 'latin1') || body.includes('RUST_BACKTRACE', 0, 'latin1')) return 'rust';
    return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
