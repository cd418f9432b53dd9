import type { FindingOwner, Whose } from '../campaign/caseVerdict.ts';
import { reasonText } from '../model/finding.ts';

/** Whose a finding is, in a report's words. */
export const OWNER_WORDS: Readonly<Record<FindingOwner, string>> = { target: "the target's", sdk: "the server SDK's way", script: "the script's own" };

/** The headings of the findings that are not the target's own: listed apart, never failing the campaign. */
const APART: Readonly<Record<Exclude<FindingOwner, 'target'>, string>> = {
  sdk: "what the server's SDK does on its own (listed apart, not counted as the author's code):",
  script: "what the case's own script explains (mcp-sim's program doing as written; not counted as the SDK's):",
};

/** The lines beneath a finding's headline that say whose it is: what the answer said, what the script explains. */
export function whoseLines(f: Whose): string[] {
  return [...(f.reason ? [`  the answer said: ${reasonText(f.reason)}`] : []), ...(f.explained ? [`  the script explains it: ${f.explained}`] : [])];
}

/**
 * A text report's findings: the target's own first (`none` when it has none), then the server
 * SDK's way and the script's own, each under its heading; `show` prints one.
 */
export function listByOwner<F extends Whose>(findings: readonly F[], lines: string[], show: (f: F) => void, none: string): void {
  const own = findings.filter((f) => f.owner === 'target');
  if (own.length === 0) lines.push(none);
  own.forEach(show);
  for (const owner of ['sdk', 'script'] as const) {
    const apart = findings.filter((f) => f.owner === owner);
    if (apart.length === 0) continue;
    lines.push('', APART[owner]);
    apart.forEach(show);
  }
}

/** The same as Markdown paragraphs, beneath a finding's message. */
export function whoseParagraphs(f: Whose): string[] {
  return [...(f.reason ? ['', `The answer said: ${reasonText(f.reason)}.`] : []), ...(f.explained ? ['', `The case's script explains it: ${f.explained}.`] : [])];
}
