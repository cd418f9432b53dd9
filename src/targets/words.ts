import { TargetArgumentError } from './Target.ts';

/**
 * Words on a command line, as the kinds of target read and print them: a word quoted for a POSIX
 * shell only when it needs it, and `--env K=V` pairs.
 */

/** `word` as a shell reads it back: bare when it is safe, else in single quotes. */
export const shellWord = (word: string): string => (/^[\w./@:=,{}+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** `--env K=V` pairs as an object; a pair without `=` (or without a name) is refused. */
export function envOf(pairs: readonly string[] | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of pairs ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new TargetArgumentError(`mcp-sim check: --env ${JSON.stringify(kv)} is not K=V: give the variable's name, then =, then its value.`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return env;
}

/** The `--cwd` and `--env` words that start a process again as `spec` says. */
export function processWords(spec: { readonly cwd?: string; readonly env?: Readonly<Record<string, string>> }): string[] {
  const words: string[] = [];
  if (spec.cwd !== undefined) words.push('--cwd', shellWord(spec.cwd));
  for (const [k, v] of Object.entries(spec.env ?? {})) words.push('--env', shellWord(`${k}=${v}`));
  return words;
}

/** `name@release` split at its last `@` that is not the first character (`sdk@1.2.3`, `testbed:go@v1.8.0`). */
export function atRelease(word: string): { readonly name: string; readonly release: string | undefined } {
  const at = word.indexOf('@', 1);
  if (at < 0) return { name: word, release: undefined };
  const release = word.slice(at + 1);
  if (release === '') throw new TargetArgumentError(`mcp-sim check: ${JSON.stringify(word)} ends with @ and no release: give one (${word}1.2.3) or leave the @ out.`);
  return { name: word.slice(0, at), release };
}
