import { existsSync, readFileSync } from 'node:fs';
import { COMMON_FLAGS, flagSet, MODULE_FLAGS, TOOL_FLAGS } from '../../options/checkFlags.ts';
import type { JsonValue } from '../../util/json.ts';
import { shellWord } from '../words.ts';
import { TargetArgumentError, type TargetKindDefinition } from '../Target.ts';

/** What a server module's path ends with: TypeScript or JavaScript, ESM or CommonJS. */
export const MODULE_PATH = /\.(?:[cm]?ts|[cm]?js)$/;

/** `--config`: a JSON object, given inline or as a file. */
function configOf(text: string): { readonly [key: string]: JsonValue } {
  const inline = text.trim().startsWith('{');
  let parsed: unknown;
  try {
    parsed = JSON.parse(inline ? text : readFileSync(text, 'utf8'));
  } catch (error) {
    throw new TargetArgumentError(`mcp-sim check: --config ${JSON.stringify(text)}: ${inline ? 'not JSON' : existsSync(text) ? 'the file is not JSON' : 'no such file'} (${(error as Error).message.split('\n')[0]}): give a JSON object or a JSON file.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TargetArgumentError(`mcp-sim check: --config must be a JSON object (the factory's config), not ${JSON.stringify(parsed)}.`);
  return parsed as { readonly [key: string]: JsonValue };
}

/**
 * A user's own TypeScript (or JavaScript) server module, run in process in virtual time: its
 * tools called with generated arguments, cancels, timeouts and closes, every step scheduled by
 * mcp-sim, each finding told in the author's terms and replayed byte for byte.
 */
export const moduleKind: TargetKindDefinition<'module'> = {
  kind: 'module',
  clock: 'virtual',
  author: 'user',
  forms: ['./server.ts       your server module (.ts, .mts, .js, .mjs), in process, virtual time'],
  parse(argument, command, flags) {
    // A file path, not another kind's prefixed form (`testbed:`, `node:`, `sdk@`; a drive letter is one letter).
    if (command !== undefined || argument === undefined || !MODULE_PATH.test(argument) || /^[a-z][a-z0-9+.-]+:|^sdk@/i.test(argument)) return undefined;
    return { kind: 'module', module: argument, ...(flags.config !== undefined && { config: configOf(flags.config) }) };
  },
  argumentOf: (spec) => [shellWord(spec.module), ...(spec.config && Object.keys(spec.config).length > 0 ? ['--config', shellWord(JSON.stringify(spec.config))] : [])],
  flags: flagSet(COMMON_FLAGS, TOOL_FLAGS, MODULE_FLAGS),
  refusal: (flag) =>
    `${flag} does not apply to a server module: it runs in process, in virtual time, one scheduled run at a time (the in-process SDK campaign's own flags are for sdk@<release>; the real-time ones for a process or URL: check -- <command>)`,
};
