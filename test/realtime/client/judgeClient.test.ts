import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clientCheckReport } from '../../../src/cli/checkClient.ts';
import { ajvValidator } from '../../../src/workload/ajvValidator.ts';
import { checkClient } from '../../../src/targets/client/checkClient.ts';
import { CLIENT_SCENARIOS, clientScenario } from '../../../src/targets/client/clientScenarios.ts';
import { CLIENT_INVARIANTS, judgeClientRun, type ClientInvariantId } from '../../../src/targets/client/judgeClient.ts';
import { runClientScenario, type ClientTransport } from '../../../src/targets/client/runClientScenario.ts';

// The raw JSON-RPC client of fixtures/: correct by default, one fault each with MCP_SIM_CLIENT_FAULT.
const RAW_CLIENT = fileURLToPath(new URL('./fixtures/rawClient.mjs', import.meta.url));
const client = (fault?: string) => (fault ? ['env', `MCP_SIM_CLIENT_FAULT=${fault}`, process.execPath, RAW_CLIENT] : [process.execPath, RAW_CLIENT]);
const OPTIONS = ['resetTimeoutOnProgress', 'maxTotalTimeout'] as const;

async function violated(fault: string | undefined, scenario: string, transport: ClientTransport): Promise<ClientInvariantId[]> {
  const s = clientScenario(scenario)!;
  const run = await runClientScenario(client(fault), s, transport);
  return judgeClientRun(s, run, OPTIONS).violations.map((v) => v.invariant);
}

/** Every client invariant, with the fault of the raw client that breaks it and a scenario that shows it. */
const FAULTS: readonly [ClientInvariantId, string, string, ClientTransport][] = [
  ['client.call-settles', 'double-settle', 'late-response', 'stdio'],
  ['client.outcome', 'late-response-delivered', 'late-response', 'stdio'],
  ['client.cancel-on-abort', 'no-cancel-on-abort', 'abort', 'stdio'],
  ['client.cancel-on-timeout', 'no-cancel-on-timeout', 'timeout', 'http'],
  ['client.cancel-known-request', 'cancel-initialize', 'result', 'stdio'],
  ['client.late-response-ignored', 'late-response-delivered', 'late-response', 'http'],
  ['client.progress-routed', 'late-progress-delivered', 'late-progress', 'stdio'],
  ['client.progress-token-unique', 'reuse-token', 'close', 'stdio'],
  ['client.server-cancel-no-response', 'answer-cancelled', 'server-cancel', 'stdio'],
  ['client.server-cancel-handler-told', 'answer-cancelled', 'server-cancel', 'http'],
  ['client.close-settles', 'close-hangs', 'close', 'stdio'],
  ['client.close-ends-server', 'leave-server', 'result', 'stdio'],
  ['client.close-deletes-session', 'no-delete', 'result', 'http'],
];

// Real time, mostly waiting on sleeps of the scenarios: the runs go side by side (each one its
// own client and scripted server), so the file takes about its longest run, not their sum.
describe.concurrent('the client judge', () => {
  it('has a faulty fixture for every client invariant', () => {
    expect(new Set(FAULTS.map(([id]) => id))).toEqual(new Set(Object.keys(CLIENT_INVARIANTS)));
  });

  it.each(FAULTS)('%s fires on the raw client with fault %s (%s, %s)', async (id, fault, scenario, transport) => {
    expect(await violated(fault, scenario, transport)).toContain(id);
  }, 30_000);

  it.each(CLIENT_SCENARIOS.flatMap((s) => (['stdio', 'http'] as const).map((t) => [s.name, t] as const)))('finds nothing on the correct raw client: %s over %s', async (scenario, transport) => {
    expect(await violated(undefined, scenario, transport)).toEqual([]);
  }, 30_000);

  it('leaves unjudged, and says so, an outcome that needs a caller option the SDK lacks', async () => {
    const s = clientScenario('reset-on-progress')!;
    const judged = judgeClientRun(s, await runClientScenario(client(), s, 'stdio'), []);
    expect(judged.notJudged).toEqual(['c1: resetTimeoutOnProgress (the SDK has no such caller option)']);
  }, 30_000);
});

describe('the client check report', () => {
  it('validates against schemas/report.schema.json (clientCheck), and the schema is not a rubber stamp', async () => {
    const validate = ajvValidator(JSON.parse(readFileSync(new URL('../../../schemas/report.schema.json', import.meta.url), 'utf8')) as object);
    const results = await checkClient(client('no-cancel-on-abort'), [clientScenario('abort')!, clientScenario('result')!], 'stdio', { runs: 1, options: OPTIONS });
    const report = JSON.parse(JSON.stringify(clientCheckReport({ language: 'typescript', sdk: 'raw-client', version: '0.0.0' }, { options: OPTIONS, lacks: [] }, results))) as Record<string, unknown>;
    expect(validate(report) ? 'valid' : validate.errors()).toBe('valid');
    expect((report['results'] as { findings: { invariant: string }[] }[])[0]!.findings.map((f) => f.invariant)).toEqual(['client.cancel-on-abort']);
    const { mode: _mode, ...noMode } = report;
    expect(validate(noMode)).toBe(false);
    expect(validate({ ...report, results: [{ ...(report['results'] as object[])[0], transport: 'carrier-pigeon' }] })).toBe(false);
  }, 30_000);
});
