import type { Side } from '../sim/scenario.ts';
import { invariant, type InvariantId, type Level } from './invariants.ts';

/**
 * What a finding is about, as data other passes can match on (`attribution.ts` links a knock-on
 * to its root cause by them, `blame.ts` finds a blamed symptom again in another run). Every
 * field is optional: a rule sets the ones it knows. Ids are the `idKey` of wire ids (`n0`, `s"a"`).
 */
export interface Subjects {
  /** The side that sent the request(s) concerned: the ids are that side's. */
  readonly sender?: Side;
  /** The connection it happened on. */
  readonly conn?: number;
  /** The client that connection belongs to (0 unless the scenario has several). */
  readonly client?: number;
  /** `idKey` of the wire ids of the requests concerned. */
  readonly ids?: readonly string[];
  /** The caller's call concerned, by label. */
  readonly call?: string;
  /** The side whose conduct is at stake when no request is (a side that closed, say). */
  readonly side?: Side;
  /** The caller AbortSignal concerned (whose abort sent a cancel, whose listeners leaked). */
  readonly signal?: string;
  /** A finding that blames an interleaving: the calls whose race it blames (a response crossing their cancel). */
  readonly raced?: readonly string[];
}

/** The earlier finding of the same trace that a knock-on follows from (`attribution.ts`). */
export interface RootCause {
  readonly invariant: InvariantId;
  readonly request?: string;
  /** Trace index of the root finding. */
  readonly at: number;
}

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
  /** What it is about, for attribution and blame confirmation. */
  readonly subjects?: Subjects;
  /** Set on a knock-on: the root finding it follows from (its root's root, for a chain). */
  readonly rootCause?: RootCause;
  /**
   * Set on a finding that replaced a blame a counterfactual run refuted (`blame.ts`): the
   * invariant first blamed and the counterfactual that showed the symptom without the race.
   */
  readonly reclassified?: { readonly from: InvariantId; readonly counterfactual: string };
  /**
   * Which clause of the invariant's definition broke, when it has several that one bug can break
   * without the other (`timeout.max-total`: the call settled late, or no cancel went out). A
   * clause is part of a finding's cause: a release that breaks another clause of a known
   * invariant is not known by it (`src/campaign/knownCauses.ts`).
   */
  readonly clause?: string;
  /**
   * The answer's own words, on a finding about an answer the receiver chose to send (an error,
   * an `isError` result to a cancelled request): what the SDK or server said for itself. Set on
   * black-box runs (a real clock), where that answer is all the client sees of why.
   */
  readonly reason?: AnswerReason;
}

/** What an answer said: a JSON-RPC error's code and message, or an `isError` tool result's text. */
export type AnswerReason =
  | { readonly answer: 'error'; readonly code: number | string | null; readonly message: string }
  | { readonly answer: 'isError'; readonly text: string }
  | { readonly answer: 'result' };

/** The reason a response frame gives, for `Finding.reason`. */
export function reasonOf(frame: unknown): AnswerReason {
  const f = (typeof frame === 'object' && frame !== null ? frame : {}) as { error?: { code?: unknown; message?: unknown }; result?: { isError?: unknown; content?: unknown } };
  if (f.error && typeof f.error === 'object') {
    const code = typeof f.error.code === 'number' || typeof f.error.code === 'string' ? f.error.code : null;
    return { answer: 'error', code, message: String(f.error.message ?? '') };
  }
  if (f.result && typeof f.result === 'object' && f.result.isError === true) {
    const content = Array.isArray(f.result.content) ? f.result.content : [];
    const text = content.map((c: { text?: unknown }) => (typeof c?.text === 'string' ? c.text : JSON.stringify(c))).join(' ');
    return { answer: 'isError', text: text.slice(0, 200) };
  }
  return { answer: 'result' };
}

export function severityOf(level: Level): Finding['severity'] {
  return level === 'SHOULD' ? 'warning' : level === 'ADVICE' ? 'note' : 'violation';
}

export function finding(id: InvariantId, at: number, message: string, request?: string, subjects?: Subjects): Finding {
  const inv = invariant(id);
  return {
    invariant: id,
    level: inv.level,
    severity: severityOf(inv.level),
    section: inv.section,
    at,
    ...(request !== undefined && { request }),
    message,
    ...(subjects !== undefined && { subjects }),
  };
}

/** What an answer said, in words (reports print it beside the finding). */
export function reasonText(reason: AnswerReason): string {
  if (reason.answer === 'error') return `error ${reason.code} ${JSON.stringify(reason.message)}`;
  return reason.answer === 'isError' ? `a tool result marked isError: ${JSON.stringify(reason.text)}` : 'a result';
}
