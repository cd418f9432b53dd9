/**
 * `npm run docs:flags`: the table of docs/cli.md that says, for every flag of `mcp-sim check`
 * (src/options/checkFlags.ts), which kinds of target take it (src/targets/<kind>/kind.ts), made
 * from the code and written between its markers. test/docs/checkFlagsTable.test.ts keeps the
 * page equal to what this makes. `--print` prints the table instead of writing it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECK_FLAGS } from '../src/options/checkFlags.ts';
import { targetKinds } from '../src/targets/kinds.ts';
import type { TargetSpec } from '../src/targets/Target.ts';

export const BEGIN = '<!-- check-flags: made by npm run docs:flags from src/options/checkFlags.ts and src/targets/<kind>/kind.ts; do not edit -->';
export const END = '<!-- /check-flags -->';

/** The kinds in the order a reader meets them: in process first, then from outside. */
const ORDER: readonly TargetSpec['kind'][] = ['sdk', 'module', 'process', 'url', 'testbed', 'client'];
/** Each kind's column head: the form of TARGET it takes. */
const HEAD: Readonly<Record<TargetSpec['kind'], string>> = {
  sdk: '(none), `sdk@…`',
  module: '`./server.ts`',
  process: '`-- <command>`',
  url: '`http://…`',
  testbed: '`testbed:…`',
  client: '`client:…`',
};

/** The table: one row per flag of check, a column per kind (✓ where the kind takes the flag), and the flag's help. */
export async function checkFlagsTable(): Promise<string> {
  const kinds = await targetKinds();
  const columns = ORDER.map((k) => {
    const kind = kinds.find((d) => d.kind === k);
    if (!kind) throw new Error(`checkFlagsTable: no kind ${k} in src/targets/`);
    return kind;
  });
  const missing = kinds.filter((k) => !ORDER.includes(k.kind));
  if (missing.length > 0) throw new Error(`checkFlagsTable: a kind with no column: ${missing.map((k) => k.kind).join(', ')} (add it to ORDER and HEAD)`);
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const lines = [
    `| flag | ${columns.map((k) => HEAD[k.kind]).join(' | ')} | what it does |`,
    `|---|${columns.map(() => ':-:').join('|')}|---|`,
    ...CHECK_FLAGS.map((f) => `| \`${cell(`${f.name}${f.value ? ` ${f.value}` : ''}`)}\` | ${columns.map((k) => (k.flags.has(f.name) ? '✓' : '–')).join(' | ')} | ${cell(f.help)} |`),
  ];
  return lines.join('\n');
}

/** `text` with the part between the markers made anew. */
export async function withTable(text: string): Promise<string> {
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`checkFlagsTable: docs/cli.md has no ${BEGIN} … ${END}`);
  return `${text.slice(0, a + BEGIN.length)}\n${await checkFlagsTable()}\n${text.slice(b)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  if (process.argv.includes('--print')) {
    console.log(await checkFlagsTable());
  } else {
    const page = join(import.meta.dirname, '..', 'docs', 'cli.md');
    const text = readFileSync(page, 'utf8');
    const made = await withTable(text);
    if (made !== text) writeFileSync(page, made);
    console.log(made === text ? 'docs/cli.md: the flag table is current' : 'docs/cli.md: the flag table rewritten');
  }
}
