import { describe, expect, it } from 'vitest';
import { fitToRelease } from '../../src/campaign/fitRelease.ts';
import { runCampaign } from '../../src/campaign/runCampaign.ts';
import { runChecked } from '../../src/check/index.ts';
import { resolveCampaignOptions } from '../../src/options/index.ts';
import { loadSdk, type SdkLocation } from '../../src/sdk/load.ts';
import type { SdkCapabilities } from '../../src/sdk/SdkAdapter.ts';

/**
 * Releases installed as devDependencies (npm aliases), each with what its own source says it
 * offers; the adapter must find the same by probing, not by reading the version.
 */
const releases: readonly { readonly location: SdkLocation; readonly version: string; readonly expected: SdkCapabilities; readonly why: string }[] = [
  {
    location: { kind: 'package', name: 'sdk-1.0.0' },
    version: '1.0.0',
    why:
      'dist/shared/protocol.js: _onrequest calls handler(request, { signal }) and the stored wrapper gets the raw request (with its id); ' +
      'request() has no resetTimeoutOnProgress or maxTotalTimeout and one plain setTimeout; no elicitation in types.js; no client/streamableHttp.js',
    expected: {
      streamableHttpServer: false,
      streamableHttpClient: false,
      elicitation: false,
      handlerRequestId: false,
      requestIdSource: 'raw-request',
      relatedMessages: false,
      progressResetsTimeout: 'never',
      resetTimeoutOnProgress: false,
      maxTotalTimeout: false,
    },
  },
  {
    location: { kind: 'package', name: 'sdk-1.7.0' },
    version: '1.7.0',
    why:
      'dist/esm/shared/protocol.js: extra is { signal, sessionId }; _onprogress calls _resetTimeout whenever the request has a timeout (no option), ' +
      'and _resetTimeout throws "Maximum total timeout exceeded" past maxTotalTimeout',
    expected: {
      streamableHttpServer: false,
      streamableHttpClient: false,
      elicitation: false,
      handlerRequestId: false,
      requestIdSource: 'raw-request',
      relatedMessages: false,
      progressResetsTimeout: 'always',
      // Declared in dist/esm/shared/protocol.d.ts, but request() never reads it (honoured from 1.9).
      resetTimeoutOnProgress: true,
      maxTotalTimeout: true,
    },
  },
  {
    location: { kind: 'package', name: 'sdk-1.12.0' },
    version: '1.12.0',
    why:
      'dist/esm/shared/protocol.js: fullExtra has requestId, _meta, sendNotification and sendRequest with relatedRequestId; ' +
      '_onprogress resets only when timeoutInfo.resetTimeoutOnProgress; client/streamableHttp.js exists, server/webStandardStreamableHttp.js and ElicitRequestSchema do not',
    expected: {
      streamableHttpServer: false,
      streamableHttpClient: true,
      elicitation: false,
      handlerRequestId: true,
      requestIdSource: 'context',
      relatedMessages: true,
      progressResetsTimeout: 'when-asked',
      resetTimeoutOnProgress: true,
      maxTotalTimeout: true,
    },
  },
  {
    location: { kind: 'installed' },
    version: '1.32.2',
    why: 'the installed release has every part (web-standard Streamable HTTP since 1.25, elicitation since 1.13)',
    expected: {
      streamableHttpServer: true,
      streamableHttpClient: true,
      elicitation: true,
      handlerRequestId: true,
      requestIdSource: 'context',
      relatedMessages: true,
      progressResetsTimeout: 'when-asked',
      resetTimeoutOnProgress: true,
      maxTotalTimeout: true,
    },
  },
];

describe('old 1.x releases: capabilities found by probing', () => {
  for (const r of releases) {
    it(`should detect what ${r.version} offers (${r.why})`, async () => {
      const sdk = await loadSdk(r.location);
      expect(sdk.version).toBe(r.version);
      expect(sdk.capabilities).toEqual(r.expected);
      expect(sdk.methods.includes('elicitation/create')).toBe(r.expected.elicitation);
    });
  }
});

describe('old 1.x releases: a short campaign runs, says what it left out, and drives the scripted handlers', () => {
  for (const r of releases.filter((x) => x.location.kind === 'package')) {
    it(`should run 150 memory cases on ${r.version} with every handler routed`, async () => {
      const sdk = await loadSdk(r.location);
      const asked = resolveCampaignOptions({ seed: 7, runs: 150, shrink: false, workers: 1 }, {});
      const { options, leftOut } = fitToRelease(asked, sdk);
      const optionsLacking = r.expected.maxTotalTimeout ? [] : ['call option resetTimeoutOnProgress', 'call option maxTotalTimeout'];
      expect(leftOut.map((l) => l.what)).toEqual(['profile http', 'elicitation/create requests', ...optionsLacking]);
      const seen = { routed: 0, progressSent: 0, progressReached: 0, unscripted: 0 };
      const report = await runCampaign(options, {
        runner: async (scenario, runOptions) => {
          const checked = await runChecked(scenario, { ...runOptions, sdk });
          for (const e of checked.result.trace) {
            if (e.kind === 'handler-start' && e.call !== undefined) seen.routed++;
            if (e.kind === 'send' && (e.frame as { method?: string }).method === 'notifications/progress') seen.progressSent++;
            if (e.kind === 'onprogress') seen.progressReached++;
            if (e.kind === 'unscripted') seen.unscripted++;
          }
          return checked;
        },
      });
      expect(report.runs).toBe(150);
      expect(report.workload).toEqual(options.workload);
      expect(report.findings.map((f) => f.invariant)).not.toContain('harness.unhandled');
      // Everything the release lacks was left out beforehand: nothing had to be skipped mid-run.
      expect(seen.unscripted).toBe(0);
      // Requests reached their scripted handlers, which reported progress that reached the callers.
      expect(seen.routed).toBeGreaterThan(150);
      expect(seen.progressSent).toBeGreaterThan(20);
      expect(seen.progressReached).toBeGreaterThan(10);
    });
  }
});

describe('old 1.x releases: what progress does to a timeout, as a run shows it', () => {
  /** A 100 ms call (reset-on-progress not asked) whose handler reports progress at 60 ms and answers at 120 ms. */
  const lateAnswer = {
    profile: 'memory' as const,
    handlers: { h: { steps: [{ kind: 'sleep' as const, ms: 60 }, { kind: 'progress' as const, progress: 1 }, { kind: 'sleep' as const, ms: 60 }], end: { kind: 'result' as const }, onAbort: 'honour' as const } },
    actions: [{ kind: 'call' as const, call: 'c1', method: 'tools/call' as const, handler: 'h', options: { timeoutMs: 100, onprogress: true } }],
  };

  it('should show the limit fitToRelease names on 1.7.0 (progress resets every timeout) and not on 1.12.0', async () => {
    const always = await runChecked(lateAnswer, { sdk: await loadSdk({ kind: 'package', name: 'sdk-1.7.0' }) });
    expect(always.findings.map((f) => f.message)).toEqual(['call c1 settled at 120 ms, after its timeout bound of 100 ms.']);
    const whenAsked = await runChecked(lateAnswer, { sdk: await loadSdk({ kind: 'package', name: 'sdk-1.12.0' }) });
    expect(whenAsked.findings).toEqual([]);
    expect(whenAsked.result.trace.find((e) => e.kind === 'call-settle')).toMatchObject({ outcome: 'rejected', code: -32001 });
  });
});
