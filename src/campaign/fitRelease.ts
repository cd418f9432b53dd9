import type { ResolvedCampaignOptions } from '../options/index.ts';
import type { SdkAdapter } from '../sdk/index.ts';
import { LEAVABLE_PARTS, type LeavablePart } from '../workload/index.ts';

/** A part of the workload a release cannot run, and why: the report lists it, the campaign runs without it. */
export interface LeftOut {
  readonly what: string;
  readonly why: string;
}

/** What a campaign left out for a release, and what it runs on it with a limit. */
export interface ReleaseFit {
  readonly leftOut: readonly LeftOut[];
  readonly limits: readonly LeftOut[];
}

/** A workload the release cannot run at all (every profile it asked for needs what the release lacks). */
export class ReleaseCannotRunError extends Error {
  override name = 'ReleaseCannotRunError';
}

/**
 * The campaign options cut to what `sdk` offers (`SdkAdapter.capabilities`, detected by probing
 * the release, never by its version): the http profile needs the web-standard Streamable HTTP
 * transports; call options and methods the release lacks are left out of the workload
 * (`ResolvedWorkload.leaveOut`, stripped after the draw, so the same seed keeps the rest of the
 * campaign comparable across releases). Each is said (`leftOut`), never crashed on mid-campaign;
 * what the release does differently and the campaign still runs is named too (`limits`), so
 * nothing degrades in silence; so is what a release has that the campaign leaves untried (the
 * 2026-07-28 era of 2.x).
 */
export function fitToRelease<O extends Pick<ResolvedCampaignOptions, 'workload'>>(
  options: O,
  sdk: Pick<SdkAdapter, 'name' | 'version' | 'capabilities'> & Partial<Pick<SdkAdapter, 'generation' | 'modern'>>,
): ReleaseFit & { readonly options: O } {
  const release = `${sdk.name}@${sdk.version}`;
  const caps = sdk.capabilities;
  const leftOut: LeftOut[] = [];
  const limits: LeftOut[] = [];
  if (caps.requestIdSource === 'none') {
    throw new ReleaseCannotRunError(`${release} does not let mcp-sim read a request handler's request id, which routes each request to its scripted handler`);
  }
  let profiles = options.workload.profiles;
  const http = caps.streamableHttpServer && caps.streamableHttpClient;
  if (!http && profiles.includes('http')) {
    const why = `${release} has no web-standard Streamable HTTP transports${sdk.generation === 2 ? '' : ' (they came with 1.25)'}`;
    profiles = profiles.filter((p) => p !== 'http');
    if (profiles.length === 0) throw new ReleaseCannotRunError(`the http profile cannot run: ${why}; run --profiles memory`);
    leftOut.push({ what: 'profile http', why });
  }
  if (profiles.includes('http-2026') && !sdk.modern) {
    const why = `${release} has no 2026-07-28 era: revision 2026-07-28 (--spec 2026-07-28, profile http-2026) needs the 2.x packages (--sdk 2.4.0, or a folder with @modelcontextprotocol/client and /server)`;
    profiles = profiles.filter((p) => p !== 'http-2026');
    if (profiles.length === 0) throw new ReleaseCannotRunError(why);
    leftOut.push({ what: 'profile http-2026', why });
  }
  const parts = new Set<LeavablePart>(options.workload.leaveOut ?? []);
  const leave = (part: LeavablePart, what: string, why: string) => {
    if (parts.has(part)) return;
    parts.add(part);
    leftOut.push({ what, why: `${release} ${why}` });
  };
  // http-2026 draws only tool calls: elicitation matters only to the session-era profiles.
  if (!caps.elicitation && options.workload.serverRequests && profiles.some((p) => p !== 'http-2026')) {
    leave('elicitation', 'elicitation/create requests', 'has no elicitation schemas (they came with 1.13): the workload draws them as tool calls');
  }
  if (!caps.resetTimeoutOnProgress) {
    leave('reset-on-progress', 'call option resetTimeoutOnProgress', 'does not declare the option resetTimeoutOnProgress (it came with 1.6.1)');
  }
  if (caps.progressResetsTimeout === 'always') {
    limits.push({
      what: 'progress resets every timeout',
      why: `${release} resets a request's timeout on every progress, asked or not (the option is honoured from 1.9): timeout.reset-on-progress and timeout.settles findings of calls without resetTimeoutOnProgress are that design`,
    });
  }
  if (!caps.maxTotalTimeout) leave('max-total-timeout', 'call option maxTotalTimeout', 'does not declare the option maxTotalTimeout (it came with 1.6.1)');
  if (!caps.relatedMessages) {
    limits.push({
      what: 'related messages',
      why: `${release} gives a handler no sendNotification or sendRequest (they came with 1.10): its progress and nested requests go through the endpoint, not tied to the request (the same frames on the memory profile)`,
    });
  }
  if (sdk.generation === 2 && !profiles.includes('http-2026')) {
    limits.push({
      what: 'era 2026-07-28',
      why: `${release} also speaks the 2026-07-28 era (server/discover, no sessions, cancel by closing the request's stream); this campaign negotiates the 2025-11-25 era only (legacy initialize): --spec 2026-07-28 runs the newer one`,
    });
  }
  const leaveOut = LEAVABLE_PARTS.filter((p) => parts.has(p));
  const sameParts = leaveOut.length === (options.workload.leaveOut?.length ?? 0);
  if (profiles === options.workload.profiles && sameParts) return { options, leftOut, limits };
  const workload = { ...options.workload, profiles, ...(leaveOut.length > 0 && { leaveOut }) };
  return { options: { ...options, workload }, leftOut, limits };
}
