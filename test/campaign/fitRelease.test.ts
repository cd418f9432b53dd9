import { describe, expect, it } from 'vitest';
import { fitToRelease, ReleaseCannotRunError } from '../../src/campaign/fitRelease.ts';
import { caseAt } from '../../src/campaign/simCase.ts';
import { resolveCampaignOptions } from '../../src/options/index.ts';
import type { SdkCapabilities } from '../../src/sdk/index.ts';
import type { CallerAction } from '../../src/sim/index.ts';

/** A release with everything but the Streamable HTTP transports, unless `caps` says otherwise. */
const release = (caps: Partial<SdkCapabilities>) => ({
  name: '@modelcontextprotocol/sdk',
  version: '1.24.0',
  capabilities: {
    streamableHttpServer: false,
    streamableHttpClient: false,
    elicitation: true,
    handlerRequestId: true,
    requestIdSource: 'context',
    relatedMessages: true,
    progressResetsTimeout: 'when-asked',
    resetTimeoutOnProgress: true,
    maxTotalTimeout: true,
    ...caps,
  } satisfies SdkCapabilities,
});

/** What 1.0.0 offers (see test/sdk/oldReleases.test.ts). */
const oldest = release({ elicitation: false, handlerRequestId: false, requestIdSource: 'raw-request', relatedMessages: false, progressResetsTimeout: 'never', resetTimeoutOnProgress: false, maxTotalTimeout: false });

const memory = () => resolveCampaignOptions({ workload: { profiles: ['memory'] } }, {});

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

  it('leaves elicitation out of the workload of a release without elicitation, unless there are no server requests', () => {
    const { options, leftOut } = fitToRelease(memory(), release({ elicitation: false }));
    expect(leftOut.map((l) => l.what)).toEqual(['elicitation/create requests']);
    expect(options.workload.leaveOut).toEqual(['elicitation']);
    const none = fitToRelease(resolveCampaignOptions({ workload: { profiles: ['memory'], serverRequests: false } }, {}), release({ elicitation: false }));
    expect(none.leftOut).toEqual([]);
    expect(none.options.workload.leaveOut).toBeUndefined();
  });

  it('leaves out the call options 1.0.0 lacks and names the related messages it cannot tie', () => {
    const { options, leftOut, limits } = fitToRelease(memory(), oldest);
    expect(options.workload.leaveOut).toEqual(['reset-on-progress', 'max-total-timeout', 'elicitation']);
    expect(leftOut.map((l) => l.what)).toEqual(['elicitation/create requests', 'call option resetTimeoutOnProgress', 'call option maxTotalTimeout']);
    expect(limits.map((l) => l.what)).toEqual(['related messages']);
  });

  it('keeps resetTimeoutOnProgress on a release that resets always, and names that as a limit', () => {
    const { options, leftOut, limits } = fitToRelease(memory(), release({ progressResetsTimeout: 'always' }));
    expect(options.workload.leaveOut).toBeUndefined();
    expect(leftOut).toEqual([]);
    expect(limits).toEqual([{ what: 'progress resets every timeout', why: expect.stringMatching(/timeout\.reset-on-progress and timeout\.settles findings/) }]);
  });

  it('keeps an option the release declares even when it does nothing: a broken option is the oracle\'s to judge, not a cut', () => {
    // A copy whose resetTimeoutOnProgress and maxTotalTimeout are declared but dead (a mutant, a regression).
    const { options, leftOut } = fitToRelease(memory(), release({ progressResetsTimeout: 'never' }));
    expect(options.workload.leaveOut).toBeUndefined();
    expect(leftOut).toEqual([]);
  });

  it('refuses a release whose handlers cannot be routed', () => {
    expect(() => fitToRelease(memory(), release({ requestIdSource: 'none' }))).toThrow(/does not let mcp-sim read a request handler's request id/);
  });

  it('strips what it leaves out after the draw: the same seed draws the same cases otherwise', () => {
    const asked = memory();
    const cut = fitToRelease(asked, oldest).options;
    const calls = (w: typeof asked.workload, k: number) => caseAt(asked.seed, k, w).scenario.actions.filter((a): a is Extract<CallerAction, { kind: 'call' }> => a.kind === 'call');
    let stripped = 0;
    for (let k = 0; k < 40; k++) {
      const [full, fitted] = [calls(asked.workload, k), calls(cut.workload, k)];
      expect(fitted.map((c) => c.call.slice(1))).toEqual(full.map((c) => c.call.slice(1)));
      fitted.forEach((c, i) => {
        const { resetTimeoutOnProgress, maxTotalTimeoutMs, ...rest } = full[i]!.options;
        expect(c.options).toEqual(rest);
        expect(c.method).toBe(full[i]!.method === 'elicitation/create' ? 'tools/call' : full[i]!.method);
        if (resetTimeoutOnProgress !== undefined || maxTotalTimeoutMs !== undefined || full[i]!.method === 'elicitation/create') stripped++;
      });
    }
    expect(stripped).toBeGreaterThan(10);
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
