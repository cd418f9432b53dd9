// The shell commands that README.md and docs/*.md show, and how to run one as printed: shared
// by test/docs/commands.test.ts (the short ones) and `npm run docs:long` (the long ones).
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One shell command shown in a document, as printed (continuations joined, trailing comment cut). */
export interface DocCommand {
  readonly file: string;
  /** Index of its `sh` block in the file: commands of one block run in order, in one folder. */
  readonly block: number;
  readonly command: string;
}

/** The documents whose `sh`/`bash` code blocks are commands a reader may paste: README.md and docs/*.md. */
export function documents(root: string): string[] {
  // docs/ and its folders (docs/sdks/<language>.md): every page a user can open.
  return ['README.md', ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/**
 * The commands of a document's `sh` and `bash` blocks. Lines that are only a comment (what a
 * command printed, `#   PASS: …`) are not commands; a trailing ` # …` is a comment; a line
 * ending in `\` continues on the next. Unlabelled blocks are synopses (`[--runs N]`), not commands.
 * A table cell that is one `npx mcp-sim …` command in backticks (the README's table of targets)
 * is a command too, each row a block of its own.
 */
export function commandsOf(file: string, text: string): DocCommand[] {
  const out: DocCommand[] = [];
  const blocks = [...text.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm)];
  blocks.forEach((m, block) => {
    const joined = m[1]!.replace(/\\\n\s*/g, '');
    for (const line of joined.split('\n')) {
      if (/^\s*(#|$)/.test(line)) continue;
      out.push({ file, block, command: line.replace(/\s+#\s.*$/, '').trim() });
    }
  });
  // Outside code blocks: table rows whose cell is a whole command.
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  let row = blocks.length;
  for (const line of prose.split('\n')) {
    if (!line.startsWith('|')) continue;
    for (const cell of line.split(/(?<!\\)\|/)) {
      const m = /^\s*`(npx mcp-sim [^`]+)`\s*$/.exec(cell);
      if (m) out.push({ file, block: row++, command: m[1]! });
    }
  }
  return out;
}

export function allCommands(root: string): DocCommand[] {
  return documents(root).flatMap((f) => commandsOf(f, readFileSync(join(root, f), 'utf8')));
}

/** What one command did. */
export interface CommandRun {
  readonly code: number | null;
  readonly ms: number;
  readonly output: string;
  readonly timedOut: boolean;
}

/**
 * A folder that looks like the clone to a command (every top-level entry linked, but `.git`,
 * `.mcp-sim` and `scratch`), so what a command writes (`race.html`, `.mcp-sim/repro/…`) lands in
 * it and not in the clone. Remove it when done.
 */
export function cloneLikeFolder(root: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-docs-'));
  for (const entry of readdirSync(root)) {
    if (entry === '.git' || entry === '.mcp-sim' || entry === 'scratch') continue;
    symlinkSync(join(root, entry), join(dir, entry));
  }
  return dir;
}

/**
 * Runs a command as printed, through bash, in `cwd`. `npx mcp-sim` is this clone's
 * `bin/mcp-sim.js` (what npx resolves from a clone, without npm's start-up); every other
 * command runs as is.
 */
export function runCommand(root: string, cwd: string, command: string, timeoutMs: number): Promise<CommandRun> {
  const prelude = `npx() { if [ "$1" = mcp-sim ]; then shift; node ${JSON.stringify(join(root, 'bin', 'mcp-sim.js'))} "$@"; else command npx "$@"; fi; }\n`;
  const started = performance.now();
  return new Promise((done) => {
    // No colour in the output a test reads: picocolors turns colour ON for any FORCE_COLOR that is set, '0' too; NO_COLOR wins over it.
    const { FORCE_COLOR: _force, ...env } = process.env;
    execFile('bash', ['-c', prelude + command], { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const e = error as (Error & { code?: number; killed?: boolean }) | null;
      done({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, ms: performance.now() - started, output: stdout + stderr, timedOut: Boolean(e?.killed) });
    });
  });
}
