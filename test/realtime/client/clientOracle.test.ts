import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { realCampaign } from '../../../src/campaign/real/realCampaign.ts';
import { realVerdict } from '../../../src/campaign/real/realVerdict.ts';
import type { InvariantId } from '../../../src/model/invariants.ts';
import { realJsonReport } from '../../../src/report/realReport.ts';
import { CLIENT_SCENARIOS, clientScenario } from '../../../src/targets/client/clientScenarios.ts';
import type { CallerOption } from '../../../src/real/clientScript.ts';
import { clientTrace } from '../../../src/targets/client/clientTrace.ts';
import { judgeCase } from '../../../src/campaign/real/judgeCase.ts';
import { CLIENT_JUDGING } from '../../../src/targets/client/open.ts';

/** A client case judged by the one oracle, the client under test. */
const judgeClientCase = (trace: Parameters<typeof judgeCase>[0], options: Parameters<typeof judgeCase>[2]) => judgeCase(trace, CLIENT_JUDGING, options);
import { clientTarget } from '../../../src/targets/client/open.ts';
import { isGenerated, type ClientCase, type GeneratedClientCase } from '../../../src/targets/client/clientCases.ts';
import { clientCaseShape } from '../../../src/workload/clientCaseShape.ts';
import { runClientScenario, type ClientTransport } from '../../../src/targets/client/runClientScenario.ts';
import { ajvValidator } from '../../../src/workload/ajvValidator.ts';

// The raw JSON-RPC client of fixtures/: correct by default, one fault each with MCP_SIM_CLIENT_FAULT.
const RAW_CLIENT = fileURLToPath(new URL('./fixtures/rawClient.mjs', import.meta.url));
const client = (fault?: string) => (fault ? ['env', `MCP_SIM_CLIENT_FAULT=${fault}`, process.execPath, RAW_CLIENT] : [process.execPath, RAW_CLIENT]);
const OPTIONS: readonly CallerOption[] = ['resetTimeoutOnProgress', 'maxTotalTimeout'];
const bounds = { inFlightMs: 150, hangAfterMs: 3_000, graceMs: 3_000 };

/** One run of `scenario` on the raw client with `fault`, judged by the model with the client under test. */
async function judged(fault: string | undefined, scenario: string, transport: ClientTransport) {
  const s = clientScenario(scenario)!;
  const trace = clientTrace(await runClientScenario(client(fault), s, transport), s, OPTIONS);
  return judgeClientCase(trace, { clock: { kind: 'real', ...bounds } });
}
const found = async (fault: string | undefined, scenario: string, transport: ClientTransport) => (await judged(fault, scenario, transport)).findings.map((f) => f.invariant);

/**
 * Every invariant of the client's own judge it replaced (testbeds/CLIENT.md), as the model's id
 * that judges the same property, with the fault of the raw client that breaks it and a scenario
 * that shows it. The model judges them all on one trace, written once (`src/model/rules/`).
 */
const FAULTS: readonly (readonly [string, InvariantId, string, string, ClientTransport])[] = [
  ['client.call-settles (returned twice)', 'timeout.quiet-after-settle', 'double-settle', 'late-response', 'stdio'],
  ['client.outcome (the late answer delivered as the aborted call\'s result)', 'cancel.late-response-silent', 'late-response-delivered', 'late-response', 'stdio'],
  ['client.cancel-on-abort', 'cancel.abort-sends-cancel', 'no-cancel-on-abort', 'abort', 'stdio'],
  ['client.cancel-on-timeout', 'timeout.sends-cancel', 'no-cancel-on-timeout', 'timeout', 'http'],
  ['client.cancel-known-request', 'cancel.not-initialize', 'cancel-initialize', 'result', 'stdio'],
  ['client.late-response-ignored', 'cancel.late-response-silent', 'late-response-delivered', 'late-response', 'http'],
  ['client.progress-routed', 'progress.delivered', 'late-progress-delivered', 'late-progress', 'stdio'],
  ['client.progress-token-unique', 'progress.token-unique', 'reuse-token', 'close', 'stdio'],
  ['client.server-cancel-no-response', 'cancel.no-response-after', 'answer-cancelled', 'server-cancel', 'stdio'],
  ['client.server-cancel-handler-told', 'cancel.handler-aborted', 'ignore-cancel', 'server-cancel', 'http'],
  ['client.close-settles', 'lifecycle.close-settles', 'close-hangs', 'close', 'stdio'],
  ['client.close-ends-server', 'lifecycle.stdio-close-ends-server', 'leave-server', 'result', 'stdio'],
  ['client.close-deletes-session', 'http.close-deletes-session', 'no-delete', 'result', 'http'],
];

/**
 * The client's own frames the model judges beyond the client judge it replaced, each with the
 * fault of the raw client that breaks it and a scenario that shows it.
 */
const WIRE_FAULTS: readonly (readonly [InvariantId, string, string, ClientTransport])[] = [
  ['rpc.params-preserved', 'no-progress-token', 'result', 'stdio'],
  ['rpc.params-preserved', 'no-progress-token', 'result', 'http'],
  ['rpc.request-id-unique', 'reuse-id', 'result', 'stdio'],
  ['rpc.request-id-type', 'null-id', 'error', 'stdio'],
  ['rpc.well-formed', 'bad-jsonrpc', 'error', 'stdio'],
];

// Real time, mostly waiting on sleeps of the scenarios: the runs go side by side (each one its
// own client and scripted server), so the file takes about its longest run, not their sum.
describe.concurrent('an SDK client judged by the model (the raw client, real time)', () => {
  it('has a faulty fixture for every invariant of the client judge it replaced', () => {
    expect(FAULTS.map(([old]) => old.split(' ')[0]).sort()).toEqual(
      ['client.call-settles', 'client.outcome', 'client.cancel-on-abort', 'client.cancel-on-timeout', 'client.cancel-known-request', 'client.late-response-ignored', 'client.progress-routed', 'client.progress-token-unique', 'client.server-cancel-no-response', 'client.server-cancel-handler-told', 'client.close-settles', 'client.close-ends-server', 'client.close-deletes-session'].sort(),
    );
  });

  it.each(FAULTS)('%s: %s fires on the raw client with fault %s (%s, %s)', async (_old, id, fault, scenario, transport) => {
    expect(await found(fault, scenario, transport)).toContain(id);
  }, 30_000);

  it.each(WIRE_FAULTS)('%s fires on the raw client with fault %s (%s, %s)', async (id, fault, scenario, transport) => {
    expect(await found(fault, scenario, transport)).toContain(id);
  }, 30_000);

  it.each(CLIENT_SCENARIOS.flatMap((s) => (['stdio', 'http'] as const).map((t) => [s.name, t] as const)))('finds nothing on the correct raw client: %s over %s', async (scenario, transport) => {
    expect(await found(undefined, scenario, transport)).toEqual([]);
  }, 30_000);

  it('gives a call the caller options the client has, and leaves out one it lacks (the call is judged as it ran)', async () => {
    const s = clientScenario('reset-on-progress')!;
    const run = await runClientScenario(client(), s, 'stdio');
    const optionsOf = (options: readonly CallerOption[]) => clientTrace(run, s, options).find((e) => e.kind === 'call-start')!;
    expect(optionsOf(OPTIONS)).toMatchObject({ options: { timeoutMs: 400, resetTimeoutOnProgress: true, onprogress: true, signal: 'c1' } });
    expect((optionsOf([]) as { options: object }).options).toEqual({ timeoutMs: 400, onprogress: true, signal: 'c1' });
  }, 30_000);

  it('puts the two records on one clock, what caused what first: each callback after the frame it reports, each call\'s start right before its request', async () => {
    const { trace } = await judged(undefined, 'result', 'stdio');
    const at = (pred: (e: (typeof trace)[number]) => boolean) => trace.findIndex(pred);
    const progress = at((e) => e.kind === 'send' && e.from === 'server' && (e.frame as { method?: string }).method === 'notifications/progress');
    expect(progress).toBeGreaterThanOrEqual(0);
    expect(at((e) => e.kind === 'onprogress')).toBeGreaterThan(progress);
    expect(trace[at((e) => e.kind === 'call-start') + 1]).toMatchObject({ kind: 'send', from: 'client', frame: { method: 'tools/call' } });
    expect(trace.at(-1)).toMatchObject({ kind: 'end' });
  }, 30_000);
});

describe("an SDK client's generated campaign", () => {
  it.each(['stdio', 'http'] as const)('finds nothing on the correct raw client: 10 generated cases over %s (every block of the arbitrary, no race on the grid)', async (transport) => {
    const target = clientTarget(
      { command: client(), options: OPTIONS, lacks: [] },
      { scenarios: undefined, transports: [transport], describe: () => ({ kind: 'client', clock: 'real', label: 'the raw client', argument: ['client:typescript'], spec: { kind: 'client', language: 'typescript' } }) },
    );
    const report = await realCampaign(target, { seed: 7, runs: 10, parallel: 1, bounds, rateRuns: 1, shrink: false });
    expect(report.findings.map((f) => `${f.invariant}: ${f.message}`)).toEqual([]);
  }, 120_000);

  it('finds the raw client\'s fault on generated cases, shrinks it to a smaller case that still shows it (the abort kept), with its rate; the minimal case replays as plain JSON', async () => {
    const target = clientTarget(
      { command: client('no-cancel-on-abort'), options: OPTIONS, lacks: [] },
      { scenarios: undefined, transports: ['stdio'], describe: () => ({ kind: 'client', clock: 'real', label: 'the raw client', argument: ['client:typescript'], spec: { kind: 'client', language: 'typescript' } }) },
    );
    // Seed 12: its first case aborts a call the server never answers (found by sampling the arbitrary).
    const report = await realCampaign(target, { seed: 12, runs: 4, parallel: 1, bounds, rateRuns: 2, shrink: true, shrinkMsMax: 40_000 });
    const f = report.findings.find((x) => x.invariant === 'cancel.abort-sends-cancel');
    expect(f, JSON.stringify(report.findings.map((x) => x.invariant))).toBeDefined();
    const minimal = f!.minimal;
    expect(isGenerated(minimal)).toBe(true);
    expect(f!.shrinks).toBeGreaterThan(0);
    expect(f!.rate).toMatchObject({ hits: 2, runs: 2 });
    expect(clientCaseShape(minimal as GeneratedClientCase)).toContain('abort');
    // The minimal case runs again from its JSON alone, as `replay FILE` runs it.
    const again = await target.run(JSON.parse(JSON.stringify(minimal)) as ClientCase, { ...bounds });
    expect(judgeClientCase(again.trace, { clock: { kind: 'real', ...bounds } }).findings.map((x) => x.invariant)).toContain('cancel.abort-sends-cancel');
  }, 180_000);
});

describe('an SDK client\'s campaign report', () => {
  it('is the real-time campaign report the other real targets write (schemas/report.schema.json), every finding by scenario and transport with its rate', async () => {
    const target = clientTarget(
      { command: client('no-cancel-on-abort'), options: OPTIONS, lacks: [] },
      {
        scenarios: [clientScenario('abort')!, clientScenario('result')!],
        transports: ['stdio'],
        describe: () => ({ kind: 'client', clock: 'real', label: 'the raw client', argument: ['client:typescript'], spec: { kind: 'client', language: 'typescript' } }),
      },
    );
    const report = await realCampaign(target, { seed: 0, runs: 2, parallel: 2, bounds, rateRuns: 1, shrink: true });
    expect(report.findings.map((f) => [f.invariant, f.cause, f.shrinks, f.confirmed])).toEqual([['cancel.abort-sends-cancel', { variant: 'stdio', shape: 'abort' }, 0, true]]);
    const validate = ajvValidator(JSON.parse(readFileSync(new URL('../../../schemas/report.schema.json', import.meta.url), 'utf8')) as object);
    const document = JSON.parse(JSON.stringify(realJsonReport(report, realVerdict(report, 'should')))) as Record<string, unknown>;
    expect(validate(document) ? 'valid' : validate.errors()).toBe('valid');
    expect(document).toMatchObject({ kind: 'campaign', clock: 'real', target: { kind: 'client' }, verdict: { result: 'fail', failing: ['cancel.abort-sends-cancel'] } });
  }, 60_000);
});
