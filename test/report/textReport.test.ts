import { describe, expect, it } from 'vitest';
import type { CampaignReport, FindingSummary } from '../../src/campaign/runCampaign.ts';
import { coverage, finding } from '../../src/model/index.ts';
import { resolveWorkload } from '../../src/options/index.ts';
import { formatCampaignReport, formatFinding, traceExcerpt } from '../../src/report/textReport.ts';
import type { RunResult, TraceEvent } from '../../src/sim/index.ts';

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

const ev = (i: number, step: number, body: Record<string, unknown>): TraceEvent => ({ i, step, t: step * 10, ...body }) as TraceEvent;

/** A tiny counterexample trace: handshake, then one choice that delivers a cancel. */
const trace: TraceEvent[] = [
  ev(0, 0, { kind: 'connect', conn: 1 }),
  ev(1, 0, { kind: 'ready', conn: 1 }),
  ev(2, 1, { kind: 'action', action: 'deliver client→server conn 1 [2]', choice: 1, enabled: 2 }),
  ev(3, 1, { kind: 'send', from: 'client', conn: 1, seq: 2, frame: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } } }),
  ev(4, 1, { kind: 'deliver', to: 'server', conn: 1, seq: 2, frame: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } }, burst: 1 }),
];

const violation: FindingSummary = {
  invariant: 'cancel.not-initialize',
  example: finding('cancel.not-initialize', 3, 'the client cancelled its initialize request (id 0).', 'client:0'),
  runs: 7,
  firstCase: 11,
  counterexample: {
    case: { scenario: { profile: 'memory', handlers: {}, actions: [{ kind: 'abort', signal: 'a' }] }, tape: [0, 1], seed: 0 },
    findings: [finding('cancel.not-initialize', 4, 'the minimal case says so in its own words.', 'client:0')],
    result: { trace, taken: [0, 1], hash: 'h', outcome: { kind: 'quiescent' }, steps: 1, virtualMs: 10, workloadDone: true } as unknown as RunResult,
    fcSeed: 1,
    fcPath: '0:1',
    shrinks: 14,
    removals: 2,
  },
};
const warning: FindingSummary = {
  invariant: 'timeout.max-total',
  example: finding('timeout.max-total', 9, 'call c1 settled late.', 'c1'),
  runs: 2,
  firstCase: 4,
  // One of its two runs is a cause the baseline does not know: the counterexample comes from it.
  fresh: { example: finding('timeout.max-total', 9, 'call c1 settled late.', 'c1'), runs: 1, firstCase: 5, inBaselineCampaign: 1 },
};
const swallowed = finding('cancel.abort-swallowed', 2, 'swallowed.');
const note: FindingSummary = { invariant: 'cancel.abort-swallowed', example: swallowed, runs: 1, firstCase: 0, fresh: { example: swallowed, runs: 1, firstCase: 0, inBaselineCampaign: 1 } };

const base: CampaignReport = {
  seed: 4242,
  workload: resolveWorkload({ profiles: ['http'], actionsMax: 3, faults: false }),
  runs: 20,
  wallMs: 2_000,
  steps: 300,
  virtualMs: 90_000,
  outcomes: { quiescent: 19, 'step-budget': 1 },
  findings: [violation, warning, note],
  coverage: { ...coverage([]), transitions: { 'a -X-> b': 3, 'b -Y-> c': 1 } },
  nondeterministic: [],
  runsPerSecond: 10,
  rates: {
    checked: true,
    checks: [
      { cause: { invariant: 'leak.correlation-maps', variant: 'memory', shape: 'close', runs: 3 }, severity: 'violation', runs: 9, of: 20, expected: 0.6, pValue: 2e-9, regression: true },
      { cause: { invariant: 'cancel.not-initialize', variant: 'http/stateful/sse', shape: 'timeout', runs: 50 }, severity: 'violation', runs: 7, of: 20, expected: 10, pValue: 0.8, regression: false },
    ],
  },
};
const madeWith = { tool: { name: 'mcp-sim', version: '0.1.0' }, sdk: { name: '@modelcontextprotocol/sdk', version: '1.32.2' } };
const ctx = { replayFiles: new Map([['cancel.not-initialize', '.mcp-sim/repro/cancel.not-initialize.json']]), madeWith };
const pinned = '--made-with mcp-sim@0.1.0,@modelcontextprotocol/sdk@1.32.2';

describe('formatCampaignReport', () => {
  const text = plain(formatCampaignReport(base, ctx));
  const lines = text.split('\n');

  it('opens with the totals and the counts by severity', () => {
    expect(lines).toContain('20 runs in 2.0 s (10 runs/s), 300 steps, 90 s of virtual time; outcomes: quiescent 19, step-budget 1');
    expect(lines).toContain('findings: 1 violation(s), 1 warning(s), 1 note(s)');
  });

  it('prints one block per finding in the given order, with badge, level, section, request and whether its cause is known', () => {
    const heads = lines.filter((l) => /^(✗|!|·) /.test(l));
    expect(heads).toEqual([
      // The minimal case's own words replace the example's.
      '✗ VIOLATION cancel.not-initialize (MUST, basic/utilities/cancellation) [client:0]: the minimal case says so in its own words. (known cause: in the baseline)',
      '! WARNING   timeout.max-total (SHOULD, basic/lifecycle#timeouts) [c1]: call c1 settled late. (new cause of a known invariant)',
      '· NOTE      cancel.abort-swallowed (ADVICE, basic/utilities/cancellation): swallowed. (new: no baseline entry explains it)',
    ]);
    expect(lines).toContain('    new cause in 1 of these runs (the others are known causes); first in case 5: the counterexample below is shrunk from it');
    expect(lines).toContain('    found in 7 of 20 runs; first in case 11');
    expect(lines).toContain('    found in 2 of 20 runs; first in case 4');
  });

  it('describes the counterexample, its trace after the handshake and its replay file', () => {
    expect(lines).toContain('    minimal counterexample (14 shrinks, 2 removals): 1 caller action(s), 1 deviation(s) from the natural order, tape [0,1]');
    expect(lines).toContain('      #2 s1 t=10 ▶ deliver client→server conn 1 [2]');
    expect(lines).toContain('      #4 s1 t=10   deliver client→server [2] notifications/cancelled requestId=0');
    // Sends and the handshake are left out of the excerpt.
    expect(text).not.toContain('#3 s1');
    expect(text).not.toContain('#1 s0');
    expect(lines).toContain('    replay: npx mcp-sim replay .mcp-sim/repro/cancel.not-initialize.json');
    expect(lines.filter((l) => l.startsWith('    replay: '))).toHaveLength(1);
  });

  it('prints a replay command for every original case that carries the non-default workload flags, the invariant and the versions', () => {
    expect(lines.filter((l) => l.includes('replay the original case'))).toEqual([
      `    replay the original case: npx mcp-sim replay --seed 4242 --case 11 --profiles http --actions-max 3 --no-faults --expect cancel.not-initialize ${pinned}`,
      `    replay the original case: npx mcp-sim replay --seed 4242 --case 5 --profiles http --actions-max 3 --no-faults --expect timeout.max-total ${pinned}`,
      `    replay the original case: npx mcp-sim replay --seed 4242 --case 0 --profiles http --actions-max 3 --no-faults --expect cancel.abort-swallowed ${pinned}`,
    ]);
    const defaults = plain(formatCampaignReport({ ...base, workload: resolveWorkload() }, ctx));
    expect(defaults).toContain(`    replay the original case: npx mcp-sim replay --seed 4242 --case 11 --expect cancel.not-initialize ${pinned}\n`);
  });

  it('lists the known causes firing significantly more often than the baseline says, or why there is no rate check', () => {
    expect(lines).toContain('rate check: 2 known cause(s) compared with the baseline\'s rates; 1 fire(s) significantly more often');
    expect(lines).toContain('  ✗ VIOLATION leak.correlation-maps on memory [close]: in 9 of 20 runs, the baseline predicts 0.6 (p = 2.0e-9)');
    expect(text).not.toContain('cancel.not-initialize on http');
    const off = plain(formatCampaignReport({ ...base, rates: { checked: false, why: 'no baseline' } }, ctx));
    expect(off).toContain('rate check: off: no baseline');
  });

  it('ends with coverage, marking race pairs never hit', () => {
    expect(lines.some((l) => l.startsWith('coverage: 2 distinct model transitions'))).toBe(true);
    expect(lines).toContain('  ✗ cancel-after-response 0');
    const hit = plain(formatCampaignReport({ ...base, coverage: { ...base.coverage, races: { ...base.coverage.races, 'cancel-after-response': 5 } } }, ctx));
    expect(hit).toContain('  ✓ cancel-after-response 5');
  });

  it('names the nondeterministic cases, and only when there are some', () => {
    expect(text).not.toContain('harness.deterministic');
    const flaky = plain(formatCampaignReport({ ...base, nondeterministic: [3, 8] }, ctx));
    expect(flaky).toContain('✗ harness.deterministic: cases 3, 8 gave another trace hash on a second run');
  });

  it('says a self-check passed when one ran, so that a pass is not mistaken for a check never made', () => {
    const checked = plain(formatCampaignReport({ ...base, selfCheck: true }, ctx));
    expect(checked).toContain(`✓ harness.deterministic: all ${base.runs} cases gave the same trace hash on a second run`);
    const flaky = plain(formatCampaignReport({ ...base, selfCheck: true, nondeterministic: [3] }, ctx));
    expect(flaky).not.toContain('✓ harness.deterministic');
  });
});

describe('formatFinding and traceExcerpt', () => {
  it('formatFinding leaves out the request when there is none', () => {
    expect(plain(formatFinding(note.example))).toBe('· NOTE      cancel.abort-swallowed (ADVICE, basic/utilities/cancellation): swallowed.');
  });

  it('traceExcerpt starts at the given event and drops sends', () => {
    expect(plain(traceExcerpt(trace, 2)).split('\n')).toEqual([
      '      #2 s1 t=10 ▶ deliver client→server conn 1 [2]',
      '      #4 s1 t=10   deliver client→server [2] notifications/cancelled requestId=0',
    ]);
  });
});
