/**
 * Parts of the workload a campaign can leave out, for a release that lacks them: the call
 * options `resetTimeoutOnProgress` and `maxTotalTimeout`, and `elicitation/create` requests.
 * Left out, they are stripped after the draw (an option is never set, an elicitation request
 * becomes a tool call), so the same seed draws the same cases with or without them and the
 * rest of a campaign stays comparable across releases.
 */
export const LEAVABLE_PARTS = ['reset-on-progress', 'max-total-timeout', 'elicitation'] as const;

export type LeavablePart = (typeof LEAVABLE_PARTS)[number];
