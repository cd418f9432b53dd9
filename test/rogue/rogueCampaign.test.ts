import { beforeAll, describe, expect, it } from 'vitest';
import { countedFindings, formatRogueTable, rogueCampaign, rogueKinds, type RogueCampaignResult, type RogueRow } from '../../src/rogue/index.ts';

/** The behaviour table of the pinned SDK (1.32.2), one line per kind, target and framing. */
const line = (r: RogueRow) =>
  `${r.target} ${r.kind} [${r.framing}] → ${r.reaction}${r.errorCodes.length ? ` ${r.errorCodes.join(',')}` : ''}` +
  `${r.followUpOk ? '' : ' FOLLOW-UP FAILED'}${r.findings.length ? ` findings=${r.findings.map((f) => f.invariant).join(',')}` : ''}`;

describe('rogueCampaign: SDK 1.32.2 behaviour table (seed 0)', () => {
  let campaign: RogueCampaignResult;
  beforeAll(async () => {
    campaign = await rogueCampaign();
  }, 60_000);

  it('should catalogue at least 30 kinds with unique names per target', () => {
    expect(rogueKinds.length).toBeGreaterThanOrEqual(30);
    const names = rogueKinds.map((k) => `${k.target}/${k.name}`);
    expect(new Set(names).size).toBe(names.length);
    for (const k of rogueKinds) expect(k.invariants.length, k.name).toBeGreaterThan(0);
  });

  it('should run every kind under both framings', () => {
    expect(campaign.rows).toHaveLength(rogueKinds.length * 2);
  });

  it('should match the recorded behaviour table', () => {
    expect(campaign.rows.map(line)).toMatchSnapshot();
  });

  it('should keep the SDK usable after every kind: follow-up answered, nothing escaped, no dead session', () => {
    for (const r of campaign.rows) {
      expect(r.followUpOk, `${r.target}/${r.kind}/${r.framing}`).toBe(true);
      expect(r.reaction, `${r.target}/${r.kind}/${r.framing}`).not.toMatch(/crash|closed/);
    }
    const fatal = campaign.findings.filter((f) => ['harness.unhandled', 'cancel.race-graceful', 'rpc.no-reply-to-notification', 'rpc.single-response'].includes(f.invariant));
    expect(fatal).toEqual([]);
  });

  it('should answer an unknown method with -32601 on both sides', () => {
    for (const r of campaign.rows.filter((x) => x.kind === 'unknown-method-request')) expect(r.errorCodes).toEqual([-32601]);
  });

  it('should abort the handler for a well-formed cancel (control case)', () => {
    for (const r of campaign.rows.filter((x) => x.kind === 'cancel-in-flight')) {
      expect(r.effects.some((e) => e.startsWith('handler aborted'))).toBe(true);
      expect(r.findings).toEqual([]);
    }
  });

  it('should name, for every kind, the invariants that judge it, and find none outside them', () => {
    for (const k of rogueKinds) expect(k.expectation, k.name).toEqual(expect.arrayContaining(['rpc.survives-bad-input', 'harness.unhandled']));
    const outside = campaign.findings.filter((f) => !rogueKinds.find((k) => k.name === f.kind && k.target === f.target)!.expectation.includes(f.invariant));
    expect(outside.map((f) => `${f.target}/${f.kind}: ${f.invariant}`)).toEqual([]);
  });

  it('should report the known SDK 1.32.2 findings: the model\'s, on the attacked side only', () => {
    const found = [...new Set(campaign.findings.map((f) => `${f.target}/${f.kind}: ${f.invariant}${f.rootCause ? ` after ${f.rootCause.invariant}` : ''}`))].sort();
    expect(found).toEqual([
      'client/cancel-id-0: cancel.handler-aborted',
      'client/empty-object: rpc.error-code',
      'client/late-response-after-cancel: cancel.late-response-silent',
      'client/non-object-number: rpc.error-code',
      'client/params-not-object: rpc.error-code',
      'client/progress-after-response: progress.race-silent',
      'client/progress-token-type-mismatch: progress.delivered',
      'client/response-id-type-mismatch: rpc.response-matches-request',
      'server/cancel-empty-string-id: cancel.handler-aborted',
      'server/cancel-id-0: cancel.handler-aborted',
      'server/empty-object: rpc.error-code',
      // The SDK keys its handlers by id: the rogue's reused id loses the first handler, which neither the cancel nor the close aborts.
      'server/id-reused-in-flight: lifecycle.close-settles after rpc.request-id-unique',
      'server/id-reused-in-flight: liveness.handler-ends after rpc.request-id-unique',
      'server/method-not-string: rpc.error-code',
      'server/missing-jsonrpc: rpc.error-code',
      'server/missing-method: rpc.error-code',
      'server/non-object-null: rpc.error-code',
      'server/non-object-number: rpc.error-code',
      'server/non-object-string: rpc.error-code',
      'server/params-array: rpc.error-code',
      'server/params-number: rpc.error-code',
      'server/tools-call-without-name: rpc.error-code',
      'server/wrong-jsonrpc-version: rpc.error-code',
    ]);
    // What fails the run: the SDK client's matching of "1" to 1, not the knock-ons of the rogue's reused id.
    const failing = countedFindings(campaign.findings).filter((f) => f.severity === 'violation');
    expect([...new Set(failing.map((f) => `${f.target}/${f.kind}: ${f.invariant}`))].sort()).toEqual(['client/progress-token-type-mismatch: progress.delivered', 'client/response-id-type-mismatch: rpc.response-matches-request']);
  });

  it('should print a Markdown table with one line per kind', () => {
    const table = formatRogueTable(campaign.rows);
    expect(table.split('\n')).toHaveLength(rogueKinds.length + 2);
  });
});
