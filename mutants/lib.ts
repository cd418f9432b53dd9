/**
 * The mutation suite's library: the mutant index, a strict unified-diff applier, and the copies
 * of the SDK that carry one mutant each. Used by `mutants/run.ts` (`npm run mutants`) and by
 * `test/mutants/mutants.test.ts`. Nothing here writes to the installed SDK: every mutant is
 * applied to a fresh copy under `node_modules/.cache/mcp-sim-mutants/<id>/`.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackage } from '../src/sdk/sdkPackage.ts';
import { SDK_PACKAGE } from '../src/sdk/load.ts';

/** This folder: the patches and `index.json`. */
export const MUTANTS_DIR = dirname(fileURLToPath(import.meta.url));
/** The project root. */
export const PROJECT_DIR = dirname(MUTANTS_DIR);
/** Where the mutated copies live; under the project's `node_modules` so the copies' own imports (zod, ajv, …) resolve. */
export const CACHE_DIR = join(PROJECT_DIR, 'node_modules', '.cache', 'mcp-sim-mutants');

/** One mutant: a small, realistic bug in one file of the SDK's lifecycle code. */
export interface Mutant {
  /** Its name, and its patch file `mutants/<id>.patch`. */
  readonly id: string;
  /** The file it changes, relative to the SDK package root (`dist/esm/shared/protocol.js`). */
  readonly file: string;
  /** The invariant family it should break (`cancel`, `progress`, `timeout`, `lifecycle`, `leak`, `http`). */
  readonly family: string;
  /** What the bug is, in one line. */
  readonly bug: string;
  /** The invariants it should break, by the author's reading of the code. */
  readonly breaks: readonly string[];
}

export interface MutantIndex {
  /** The SDK release the patches are made against. */
  readonly sdk: { readonly name: string; readonly version: string };
  readonly mutants: readonly Mutant[];
}

export function readMutantIndex(): MutantIndex {
  return JSON.parse(readFileSync(join(MUTANTS_DIR, 'index.json'), 'utf8')) as MutantIndex;
}

export function patchPath(id: string): string {
  return join(MUTANTS_DIR, `${id}.patch`);
}

/** A patch that cannot be read or no longer applies; the message names the patch, the file and the hunk. */
export class PatchError extends Error {
  override name = 'PatchError';
}

interface Hunk {
  readonly header: string;
  readonly oldStart: number;
  readonly oldLines: readonly string[];
  readonly newLines: readonly string[];
}

/** A unified diff of one file. */
export interface FilePatch {
  /** The file, relative to the package root (the `a/` and `b/` prefixes stripped). */
  readonly file: string;
  readonly hunks: readonly Hunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses a unified diff of exactly one file (`diff -u`, `git diff`); `name` is for messages. */
export function parsePatch(text: string, name: string): FilePatch {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let i = 0;
  while (i < lines.length && !lines[i]!.startsWith('--- ')) i++;
  const from = lines[i]?.slice(4).split('\t')[0];
  const to = lines[i + 1]?.startsWith('+++ ') ? lines[i + 1]!.slice(4).split('\t')[0] : undefined;
  if (from === undefined || to === undefined) throw new PatchError(`${name}: not a unified diff (no ---/+++ header)`);
  const strip = (p: string) => p.replace(/^[ab]\//, '');
  if (strip(from) !== strip(to)) throw new PatchError(`${name}: renames are not supported (${from} → ${to})`);
  i += 2;
  const hunks: Hunk[] = [];
  while (i < lines.length) {
    const header = lines[i]!;
    if (header.startsWith('--- ')) throw new PatchError(`${name}: more than one file in the patch; a mutant changes one file`);
    const m = HUNK_HEADER.exec(header);
    if (!m) throw new PatchError(`${name}: line ${i + 1} is not a hunk header: ${JSON.stringify(header)}`);
    let oldLeft = m[2] === undefined ? 1 : Number(m[2]);
    let newLeft = m[4] === undefined ? 1 : Number(m[4]);
    const oldLines: string[] = [];
    const newLines: string[] = [];
    i++;
    while (oldLeft > 0 || newLeft > 0) {
      const line = lines[i];
      if (line === undefined) throw new PatchError(`${name}: hunk ${header} ends early`);
      i++;
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      const body = line.slice(1);
      if (line.startsWith(' ') || line === '') {
        oldLines.push(body);
        newLines.push(body);
        oldLeft--;
        newLeft--;
      } else if (line.startsWith('-')) {
        oldLines.push(body);
        oldLeft--;
      } else if (line.startsWith('+')) {
        newLines.push(body);
        newLeft--;
      } else {
        throw new PatchError(`${name}: unexpected line in hunk ${header}: ${JSON.stringify(line)}`);
      }
      if (oldLeft < 0 || newLeft < 0) throw new PatchError(`${name}: hunk ${header} has more lines than its header says`);
    }
    while (lines[i]?.startsWith('\\')) i++;
    hunks.push({ header: m[0], oldStart: Number(m[1]), oldLines, newLines });
  }
  if (hunks.length === 0) throw new PatchError(`${name}: no hunks`);
  return { file: strip(from), hunks };
}

function matchesAt(lines: readonly string[], at: number, expected: readonly string[]): boolean {
  if (at < 0 || at + expected.length > lines.length) return false;
  return expected.every((l, k) => lines[at + k] === l);
}

/**
 * Applies `patch` to `original` strictly: every hunk's context and removed lines must match
 * exactly (no fuzz), at the line its header names or, when lines moved, at exactly one other
 * place after the previous hunk. Anything else is a `PatchError` naming the hunk and the first
 * line that differs.
 */
export function applyPatch(original: string, patch: FilePatch, name: string): string {
  const lines = original.split('\n');
  const out: string[] = [];
  let pos = 0;
  patch.hunks.forEach((hunk, k) => {
    const expectedAt = hunk.oldLines.length === 0 ? hunk.oldStart : hunk.oldStart - 1;
    let at = -1;
    if (matchesAt(lines, expectedAt, hunk.oldLines) && expectedAt >= pos) {
      at = expectedAt;
    } else if (hunk.oldLines.length > 0) {
      const candidates: number[] = [];
      for (let p = pos; p + hunk.oldLines.length <= lines.length; p++) if (matchesAt(lines, p, hunk.oldLines)) candidates.push(p);
      if (candidates.length === 1) at = candidates[0]!;
      else if (candidates.length > 1) {
        throw new PatchError(
          `${name} does not apply to ${patch.file}: hunk ${k + 1} (${hunk.header}) matches at lines ${candidates.map((c) => c + 1).join(', ')}, not at ${expectedAt + 1}`,
        );
      }
    }
    if (at < 0) {
      const firstDiff = hunk.oldLines.findIndex((l, j) => lines[expectedAt + j] !== l);
      const line = expectedAt + Math.max(firstDiff, 0);
      throw new PatchError(
        `${name} no longer applies to ${patch.file}: hunk ${k + 1} (${hunk.header}) matches nowhere; ` +
          `at line ${line + 1} it expects ${JSON.stringify(hunk.oldLines[Math.max(firstDiff, 0)] ?? '')} and the file has ${JSON.stringify(lines[line] ?? '<end of file>')}. ` +
          `The SDK file changed since the patch was made: remake the mutant against it.`,
      );
    }
    out.push(...lines.slice(pos, at), ...hunk.newLines);
    pos = at + hunk.oldLines.length;
  });
  out.push(...lines.slice(pos));
  return out.join('\n');
}

/** The installed SDK's package folder (the pristine source of every copy). */
export function installedSdkRoot(): string {
  const pkg = findPackage(SDK_PACKAGE, import.meta.url);
  if (!pkg) throw new Error(`${SDK_PACKAGE} is not installed next to mcp-sim; run npm ci.`);
  return pkg.root;
}

/** Reads `mutants/<id>.patch` and applies it to the installed SDK's file, in memory. */
export function mutatedSource(id: string): { readonly file: string; readonly source: string } {
  const name = `mutants/${id}.patch`;
  if (!existsSync(patchPath(id))) throw new PatchError(`${name}: no such patch (mutants/index.json lists ${id})`);
  const patch = parsePatch(readFileSync(patchPath(id), 'utf8'), name);
  const target = join(installedSdkRoot(), patch.file);
  if (!existsSync(target)) throw new PatchError(`${name}: the SDK has no file ${patch.file}`);
  return { file: patch.file, source: applyPatch(readFileSync(target, 'utf8'), patch, name) };
}

/** A mutant's copy of the SDK. */
export interface MutantCopy {
  /** The folder to give `MCP_SIM_SDK`: a project folder with `node_modules/@modelcontextprotocol/sdk`. */
  readonly project: string;
  /** The copied package's own folder. */
  readonly packageRoot: string;
}

/**
 * A fresh copy of the installed SDK (ESM build, no source maps) with mutant `id` applied alone,
 * at `node_modules/.cache/mcp-sim-mutants/<id>/node_modules/@modelcontextprotocol/sdk`. The
 * patch is applied first, in memory, so a patch that no longer applies leaves nothing behind.
 */
export function prepareMutant(id: string, cacheDir: string = CACHE_DIR): MutantCopy {
  const { file, source } = mutatedSource(id);
  const from = installedSdkRoot();
  const project = join(cacheDir, id);
  const packageRoot = join(project, 'node_modules', ...SDK_PACKAGE.split('/'));
  rmSync(project, { recursive: true, force: true });
  mkdirSync(dirname(packageRoot), { recursive: true });
  cpSync(from, packageRoot, {
    recursive: true,
    filter: (path) => {
      const inside = relative(from, path).split(sep).join('/');
      return !path.endsWith('.map') && !inside.startsWith('dist/cjs');
    },
  });
  writeFileSync(join(packageRoot, file), source);
  writeFileSync(join(project, 'mutant.json'), JSON.stringify({ id, file, from }, null, 2) + '\n');
  return { project, packageRoot };
}
