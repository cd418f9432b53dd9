import { describe, expect, it } from 'vitest';
import { fitToRelease, ReleaseCannotRunError } from '../../src/campaign/fitRelease.ts';
import { resolveCampaignOptions } from '../../src/options/index.ts';
import type { SdkCapabilities } from '../../src/sdk/index.ts';

const release = (caps: Partial<SdkCapabilities>) => ({
  name: '@modelcontextprotocol/sdk',
  version: '1.24.0',
  capabilities: { streamableHttpServer: false, streamableHttpClient: false, elicitation: true, handlerRequestId: true, ...caps },
});

describe('fitToRelease: a campaign cut to what the release offers, and said so', () => {
  it('leaves the http profile out on a release without the web-standard Streamable HTTP transports', () => {
    const asked = resolveCampaignOptions({}, {});
    const { options, leftOut, limits } = fitToRelease(asked, release({}));
    expect(options.workload.profiles).toEqual(['memory']);
    expect(leftOut).toEqual([{ what: 'profile http', why: expect.stringMatching(/^@modelcontextprotocol\/sdk@1\.24\.0 has no web-standard Streamable HTTP transports/) }]);
    expect(limits).toEqual([]);
  });

  it('keeps everything on a release that has them, and refuses an http-only campaign on one that has not', () => {
    const asked = resolveCampaignOptions({}, {});
    expect(fitToRelease(asked, release({ streamableHttpServer: true, streamableHttpClient: true })).options).toBe(asked);
    const httpOnly = resolveCampaignOptions({ workload: { profiles: ['http'] } }, {});
    expect(() => fitToRelease(httpOnly, release({}))).toThrow(ReleaseCannotRunError);
  });

  it('names the elicitation requests the workload still sends to a release without elicitation', () => {
    const { limits } = fitToRelease(resolveCampaignOptions({ workload: { profiles: ['memory'] } }, {}), release({ elicitation: false }));
    expect(limits.map((l) => l.what)).toEqual(['elicitation/create']);
    expect(fitToRelease(resolveCampaignOptions({ workload: { profiles: ['memory'], serverRequests: false } }, {}), release({ elicitation: false })).limits).toEqual([]);
  });

  it('names the 2026-07-28 era a 2.x release also speaks, which the campaign leaves untried', () => {
    const asked = resolveCampaignOptions({}, {});
    const v2 = { ...release({ streamableHttpServer: true, streamableHttpClient: true }), name: '@modelcontextprotocol/server', version: '2.4.0', generation: 2 as const };
    const { options, limits } = fitToRelease(asked, v2);
    expect(options).toBe(asked);
    expect(limits).toEqual([{ what: 'era 2026-07-28', why: expect.stringMatching(/^@modelcontextprotocol\/server@2\.4\.0 also speaks the 2026-07-28 era .*2025-11-25 era only/) }]);
    expect(fitToRelease(asked, { ...v2, generation: 1 }).limits).toEqual([]);
  });
});
