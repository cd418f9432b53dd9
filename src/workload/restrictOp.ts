import type { CallOptions, HandlerProgram, HandlerStep, Profile, RequestMethod } from '../sim/scenario.ts';
import type { DraftOp, DraftOption, DraftOptions, DraftProgram } from './draftOps.ts';
import type { OptionLevel, SwarmFeatures } from './swarmFeatures.ts';
import type { TimingPalette } from './timingPalette.ts';

/** What a drawn op becomes under a case's features: `undefined` when its feature is off. */
export type RestrictedOp =
  | { readonly op: 'call'; readonly method: RequestMethod; readonly options: CallOptions; readonly program: HandlerProgram }
  | Exclude<DraftOp, { op: 'call' }>;

/** The case's features and durations, and its transport (drops exist on http and http-2026 only). */
export interface Restriction {
  readonly features: SwarmFeatures;
  readonly palette: TimingPalette;
  readonly profile: Profile;
  /** The workload leaves elicitation out (`leavableParts.ts`): an elicitation request becomes a tool call. */
  readonly withoutElicitation?: boolean;
}

/**
 * `op` with what its case's features turn off stripped and its durations looked up: an abort,
 * close, reconnect or drop whose feature is off is removed; a server request becomes a tool
 * call when those are off or the profile is `http-2026`, and so does an elicitation request when
 * the workload leaves elicitation out (the case keeps its number of calls); options, steps, ends
 * and abort policies whose feature is off are dropped or made plain.
 */
export function restrictOp(op: DraftOp, r: Restriction): RestrictedOp | undefined {
  const f = r.features;
  switch (op.op) {
    case 'call': {
      // 2026-07-28 has no server-to-client requests: there every call is a tool call, and its tool calls nothing back.
      const modern = r.profile === 'http-2026';
      const kept = op.method === 'tools/call' || (f.serverRequests && !modern && !(op.method === 'elicitation/create' && r.withoutElicitation));
      const method = kept ? op.method : 'tools/call';
      return { op: 'call', method, options: restrictOptions(op.options, r), program: restrictProgram(op.program, method === 'tools/call' && !modern, r) };
    }
    case 'abort':
      return f.aborts ? op : undefined;
    case 'close':
      return f.closes ? op : undefined;
    case 'reconnect':
      // A fresh `Client` is a memory-profile action: on http every client has its own `Server`.
      if (!f.reconnects) return undefined;
      return op.fresh && r.profile !== 'memory' ? { ...op, fresh: false } : op;
    case 'drop':
      return f.drops && r.profile !== 'memory' ? op : undefined;
  }
}

/** The option's value at `level`, or `undefined` when the call does not set it. */
function levelled<T>(level: OptionLevel, o: DraftOption<T>, all: T = o.value): T | undefined {
  if (level === 'all') return all;
  return level === 'some' && o.set ? o.value : undefined;
}

function restrictOptions(o: DraftOptions, { features: f, palette }: Restriction): CallOptions {
  const timeout = levelled(f.timeout, o.timeout);
  const reset = levelled(f.resetOnProgress, o.resetTimeoutOnProgress, true);
  const maxTotal = levelled(f.maxTotal, o.maxTotal);
  const onprogress = levelled(f.onprogress, o.onprogress, true);
  const signal = levelled(f.signalOption, o.signal);
  return {
    ...(timeout !== undefined && { timeoutMs: palette[timeout]! }),
    ...(reset !== undefined && { resetTimeoutOnProgress: reset }),
    ...(maxTotal !== undefined && { maxTotalTimeoutMs: palette[maxTotal]! }),
    ...(onprogress !== undefined && { onprogress }),
    meta: { traceparent: 'sim' },
    ...(signal !== undefined && { signal }),
  };
}

/**
 * Progress values are drawn as increments and summed after the strip, so a correct script always
 * increases. Only tools call back into the client: a server request turned into a tool call
 * keeps no calls.
 */
/** The features that shape a handler program. */
type ProgramFeatures = Pick<SwarmFeatures, 'progressSteps' | 'sleeps' | 'nestedCalls' | 'hangs' | 'errors' | 'abortPolicies'>;

function restrictProgram(p: DraftProgram, isTool: boolean, { features: f, palette }: { readonly features: ProgramFeatures; readonly palette: TimingPalette }): HandlerProgram {
  let sum = 0;
  const steps: HandlerStep[] = [];
  for (const s of p.steps) {
    if (s.kind === 'progress' && f.progressSteps) {
      sum += s.progress;
      steps.push(s.total === undefined ? { kind: 'progress', progress: sum } : { kind: 'progress', progress: sum, total: s.total });
    } else if (s.kind === 'sleep' && f.sleeps) {
      steps.push({ kind: 'sleep', ms: palette[s.duration]! });
    } else if (s.kind === 'call' && f.nestedCalls && isTool) {
      steps.push({ kind: 'call', method: s.method });
    }
  }
  const end = (p.end.kind === 'hang' && !f.hangs) || (p.end.kind === 'error' && !f.errors) ? { kind: 'result' as const } : p.end;
  return { steps, end, onAbort: f.abortPolicies ? p.onAbort : 'honour' };
}

/** Every handler feature on: a drawn tool program kept whole (its steps, end and abort policy). */
const ALL_HANDLER_FEATURES: ProgramFeatures = { progressSteps: true, sleeps: true, nestedCalls: true, hangs: true, errors: true, abortPolicies: true };

/**
 * A drawn tool handler program with every handler feature on, its sleeps looked up in `palette`:
 * the same programs the simulator's scripted campaign generates, for a real-time run (the SDK
 * test beds interpret them, `src/targets/testbed/`).
 */
export function toolProgramOf(p: DraftProgram, palette: TimingPalette): HandlerProgram {
  return restrictProgram(p, true, { features: ALL_HANDLER_FEATURES, palette });
}
