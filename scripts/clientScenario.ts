// Runs the client scenarios (testbeds/CLIENT.md) against any test-bed client command and prints
// each run's side channel, wire log, the trace the model judged (the client under test) and its
// findings: the tool for writing a test-bed client.
//   node --import tsx scripts/clientScenario.ts [--scenario NAME[,NAME]] [--transport stdio|http] [--runs N] [--quiet] -- CLIENT CMD...
import { parseArgs } from 'node:util';
import { CLIENT_SCENARIOS } from '../src/targets/client/clientScenarios.ts';
import { DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS } from '../src/options/defaults.ts';
import { formatTrace } from '../src/sim/trace.ts';
import { clientTrace } from '../src/targets/client/clientTrace.ts';
import { judgeCase } from '../src/campaign/real/judgeCase.ts';
import { CLIENT_JUDGING } from '../src/targets/client/open.ts';

/** A client case judged by the one oracle, the client under test. */
const judgeClientCase = (trace: Parameters<typeof judgeCase>[0], options: Parameters<typeof judgeCase>[2]) => judgeCase(trace, CLIENT_JUDGING, options);
import { runClientScenario, type ClientTransport } from '../src/targets/client/runClientScenario.ts';

const dash = process.argv.indexOf('--');
if (dash < 0 || dash === process.argv.length - 1) {
  console.error('usage: clientScenario.ts [--scenario NAME[,NAME]] [--transport stdio|http] [--runs N] [--quiet] -- CLIENT CMD...');
  process.exit(2);
}
const { values } = parseArgs({
  args: process.argv.slice(2, dash),
  options: { scenario: { type: 'string' }, transport: { type: 'string', default: 'stdio' }, runs: { type: 'string', default: '1' }, quiet: { type: 'boolean', default: false } },
});
const client = process.argv.slice(dash + 1);
const names = values.scenario?.split(',');
const scenarios = CLIENT_SCENARIOS.filter((s) => !names || names.includes(s.name));
if (scenarios.length === 0) {
  console.error(`no such scenario: ${values.scenario}; one of ${CLIENT_SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const scenario of scenarios) {
  for (let i = 0; i < Number(values.runs); i++) {
    const run = await runClientScenario(client, scenario, values.transport as ClientTransport);
    // A client written by hand is given every caller option the scripts use.
    const trace = clientTrace(run, scenario, ['resetTimeoutOnProgress', 'maxTotalTimeout']);
    const judged = judgeClientCase(trace, { clock: { kind: 'real', inFlightMs: DEFAULT_IN_FLIGHT_MS, hangAfterMs: DEFAULT_HANG_AFTER_MS, graceMs: DEFAULT_PROCESS_GRACE_MS } });
    console.log(`\n=== ${scenario.name} (${values.transport}) run ${i + 1}: ${scenario.question}`);
    if (!values.quiet) {
      console.log('--- client side channel');
      for (const e of run.events) console.log(`  ${String(e.t).padStart(7)} ms  ${JSON.stringify(e)}`);
      for (const line of run.stderr) console.log(`  stderr: ${line}`);
      console.log('--- wire (scripted server)');
      for (const w of run.wire) console.log(`  ${String(w.t).padStart(7)} ms  ${w.dir ?? '  '} ${JSON.stringify(w.frame ?? { event: w.event, ...w, t: undefined })}`);
      console.log('--- the trace the model judged');
      console.log(formatTrace(judged.trace));
    }
    for (const f of judged.findings) console.log(`  ${f.severity.toUpperCase()} ${f.invariant}${f.clause ? ` (${f.clause})` : ''}: ${f.message}`);
    if (judged.findings.length > 0) failed++;
  }
}
console.log(`\n${failed} run(s) with findings`);
