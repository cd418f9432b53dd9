import type { TraceEvent } from '../sim/index.ts';
import { toMermaid } from './mermaid.ts';

/** Text for one table cell or one line: no pipe that would split the cell, no line break. */
export const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The first line of a Markdown report: the command and its verdict. */
export const verdictHeading = (command: string, failed: boolean) => `## mcp-sim ${command}: ${failed ? '❌ FAIL' : '✅ PASS'}`;

/** What a report says of one finding: a heading, its words, the commands that replay it, and the run it was seen in. */
export interface FindingBlock {
  /** The heading's subject: an invariant id, or a cause. */
  readonly title: string;
  readonly level: string;
  readonly section: string;
  /** Fails the verdict, known, or new without failing: a few words. */
  readonly status: string;
  readonly message: string;
  readonly commands: readonly string[];
  /** The run shown as a Mermaid sequence diagram (handshake left out), with a line that says which run it is. */
  readonly run?: { readonly caption: string; readonly trace: readonly TraceEvent[] };
}

/** A finding's section: `### title (level, section): status`, the message, the replay commands, and its diagram (GitHub draws it). */
export function findingSection(f: FindingBlock): string[] {
  const lines = [`### \`${f.title}\` (${f.level}, ${f.section}): ${f.status}`, '', cell(f.message), '', '```sh', ...f.commands, '```', ''];
  if (f.run) lines.push(f.run.caption, '', '```mermaid', toMermaid(f.run.trace, { skipHandshake: true }), '```', '');
  return lines;
}
