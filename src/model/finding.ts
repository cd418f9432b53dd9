import { invariant, type InvariantId, type Level } from './invariants.ts';

/**
 * One broken rule in one run. Severity follows the level: MUST and DERIVED are violations (they
 * fail a run), SHOULD is a warning, ADVICE a note.
 */
export interface Finding {
  readonly invariant: InvariantId;
  readonly level: Level;
  readonly severity: 'violation' | 'warning' | 'note';
  readonly section: string;
  /** Index of the trace event where it was seen (the end event for end-of-run checks). */
  readonly at: number;
  /** The request it concerns: a call label, or `side:id` for a request seen only on the wire. */
  readonly request?: string;
  /** One sentence a user understands without reading code. */
  readonly message: string;
}

export function severityOf(level: Level): Finding['severity'] {
  return level === 'SHOULD' ? 'warning' : level === 'ADVICE' ? 'note' : 'violation';
}

export function finding(id: InvariantId, at: number, message: string, request?: string): Finding {
  const inv = invariant(id);
  return {
    invariant: id,
    level: inv.level,
    severity: severityOf(inv.level),
    section: inv.section,
    at,
    ...(request !== undefined && { request }),
    message,
  };
}
