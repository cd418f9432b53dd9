import { createHash } from 'node:crypto';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { canonicalJson } from '../util/json.ts';

/** Hex digits of the target's hash in a replay file's name: enough that two targets of one directory never meet. */
const HASH_DIGITS = 8;

/** A short hash of a target's spec (its canonical JSON): the same target, the same name, run after run. */
export function targetHash(spec: unknown): string {
  return createHash('sha256').update(canonicalJson(spec)).digest('hex').slice(0, HASH_DIGITS);
}

/**
 * A finding's replay file name: the target's words (readable), the hash of its spec (so another
 * target's run into the same directory, `python a.py` after `python b.py` or the same command in
 * another folder, never overwrites it), the invariant, and `-2`, `-3` for its further causes.
 * The same target's next run writes the same names: its replay files are the latest.
 */
export function replayFileName(target: { readonly argument: readonly string[]; readonly kind: string; readonly spec: unknown }, invariant: string, n: number): string {
  // A path says its last part (`server.py`, not the folders to it): the hash tells the rest apart.
  const words = target.argument.filter((w) => !w.startsWith('-')).map((w) => (w.includes('://') ? w.replace(/^\w+:\/\//, '') : basename(w) || w)).join('-').replace(/[^\w.@-]+/g, '_').replace(/^[._-]+/, '').slice(0, 60) || target.kind;
  return `${words}-${targetHash(target.spec)}-${invariant}${n > 0 ? `-${n + 1}` : ''}.json`;
}

/**
 * A path as the user can type it from `cwd`, where they ran the campaign: relative to it when the
 * file is beneath it, absolute otherwise (`--out /tmp/x`, `--out ../elsewhere`).
 */
export function pathFromCwd(file: string, cwd: string = process.cwd()): string {
  const absolute = resolve(cwd, file);
  const rel = relative(cwd, absolute);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : absolute;
}

/** A word for a shell: quoted when it holds anything a shell reads. */
export const shellWord = (word: string): string => (/^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** Where a finding's replay file goes, and the command that replays it from `cwd`. */
export function replayPlace(dir: string, name: string, cwd: string = process.cwd()): { readonly file: string; readonly command: string } {
  const file = pathFromCwd(join(dir, name), cwd);
  return { file, command: `npx mcp-sim replay ${shellWord(file)}` };
}
