import type { ResolvedCampaignOptions } from '../options/index.ts';
import type { SdkAdapter } from '../sdk/index.ts';

/** A part of the workload a release cannot run, and why: the report lists it, the campaign runs without it. */
export interface LeftOut {
  readonly what: string;
  readonly why: string;
}

/** A workload the release cannot run at all (every profile it asked for needs what the release lacks). */
export class ReleaseCannotRunError extends Error {
  override name = 'ReleaseCannotRunError';
}

/**
 * The campaign options cut to what `sdk` offers (`SdkAdapter.capabilities`): the http profile
 * needs the web-standard Streamable HTTP transports (1.25 and later), so on an older release it
 * is left out and said so, never crashed on mid-campaign. What the harness still sends that the
 * release lacks is named too (`limits`), so nothing degrades in silence.
 */
export function fitToRelease<O extends Pick<ResolvedCampaignOptions, 'workload'>>(
  options: O,
  sdk: Pick<SdkAdapter, 'name' | 'version' | 'capabilities'>,
): { readonly options: O; readonly leftOut: readonly LeftOut[]; readonly limits: readonly LeftOut[] } {
  const release = `${sdk.name}@${sdk.version}`;
  const leftOut: LeftOut[] = [];
  const limits: LeftOut[] = [];
  let profiles = options.workload.profiles;
  const http = sdk.capabilities.streamableHttpServer && sdk.capabilities.streamableHttpClient;
  if (!http && profiles.includes('http')) {
    const why = `${release} has no web-standard Streamable HTTP transports (they came with 1.25)`;
    profiles = profiles.filter((p) => p !== 'http');
    if (profiles.length === 0) throw new ReleaseCannotRunError(`the http profile cannot run: ${why}; run --profiles memory`);
    leftOut.push({ what: 'profile http', why });
  }
  if (!sdk.capabilities.elicitation && options.workload.serverRequests) {
    limits.push({
      what: 'elicitation/create',
      why: `${release} has no elicitation schemas, and the workload still sends elicitation/create requests: their findings are the harness's (--no-server-requests avoids them)`,
    });
  }
  if (profiles === options.workload.profiles) return { options, leftOut, limits };
  return { options: { ...options, workload: { ...options.workload, profiles } }, leftOut, limits };
}
