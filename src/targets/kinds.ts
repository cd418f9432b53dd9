import { existsSync, readdirSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stdioSuggestion } from './stdioSuggestion.ts';
import { TargetArgumentError, type TargetFlags, type TargetKindDefinition, type TargetSpec } from './Target.ts';

/**
 * The kinds of target, found where they live: every folder of src/targets/ with a `kind.ts` (a
 * `kind.js` once built) defines one. A new kind is a new folder; nothing else lists it.
 */
let known: Promise<readonly TargetKindDefinition[]> | undefined;

/** The order `check --help` lists the built-in kinds in (the installed SDK first); a kind added later comes after them, by name. */
const HELP_ORDER = ['sdk', 'module', 'process', 'url', 'testbed', 'client'];
const rank = (folder: string) => (HELP_ORDER.includes(folder) ? HELP_ORDER.indexOf(folder) : HELP_ORDER.length);
const byHelpOrder = (a: string, b: string) => rank(a) - rank(b) || a.localeCompare(b);

export function targetKinds(): Promise<readonly TargetKindDefinition[]> {
  known ??= (async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const ext = extname(fileURLToPath(import.meta.url));
    const folders = readdirSync(here, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(here, d.name, `kind${ext}`))).map((d) => d.name).sort(byHelpOrder);
    const kinds: TargetKindDefinition[] = [];
    for (const folder of folders) {
      const module = (await import(pathToFileURL(join(here, folder, `kind${ext}`)).href)) as Record<string, unknown>;
      const kind = Object.values(module).find((v): v is TargetKindDefinition => typeof v === 'object' && v !== null && 'kind' in v && 'parse' in v);
      if (!kind) throw new Error(`targetKinds: src/targets/${folder}/kind${ext} exports no TargetKindDefinition (an object with kind and parse)`);
      kinds.push(kind);
    }
    return kinds;
  })();
  return known;
}

/** The definition of `kind`. */
export async function targetKind(kind: TargetSpec['kind']): Promise<TargetKindDefinition> {
  const found = (await targetKinds()).find((k) => k.kind === kind);
  if (!found) throw new Error(`targetKind: no kind ${JSON.stringify(kind)} in src/targets/`);
  return found;
}

/**
 * The target `argument` (and the words after `--`, and the flags that say more of it) names.
 * Exactly one kind recognises a form; an argument no kind takes is refused with the forms there
 * are, and a file that is not a module is told how to run it as a stdio server.
 */
export async function parseTarget(argument: string | undefined, command: readonly string[] | undefined, flags: TargetFlags = {}): Promise<TargetSpec> {
  const kinds = await targetKinds();
  const matches: TargetSpec[] = [];
  for (const k of kinds) {
    const spec = k.parse(argument, command, flags);
    if (spec) matches.push(spec);
  }
  if (matches.length > 1) throw new Error(`parseTarget: ${JSON.stringify(argument)} is a form of ${matches.map((m) => m.kind).join(' and ')}: each kind's parse must claim its own forms only`);
  if (matches.length === 1) return matches[0]!;
  const stdio = argument === undefined ? undefined : stdioSuggestion(argument);
  if (argument !== undefined && stdio !== undefined) {
    throw new TargetArgumentError(`mcp-sim check: ${argument} is not a TypeScript or JavaScript module; check it as the stdio server it is: mcp-sim check ${stdio}`);
  }
  throw new TargetArgumentError(`mcp-sim check: ${JSON.stringify(argument)} names no target. A target is one of:\n${kinds.flatMap((k) => k.forms).map((f) => `  ${f}`).join('\n')}`);
}
