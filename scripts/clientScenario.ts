// Runs the client scenarios (testbeds/CLIENT.md) against any test-bed client command and prints
// each run's side channel, wire log and findings: the tool for writing a test-bed client.
//   node --import tsx scripts/clientScenario.ts [--scenario NAME[,NAME]] [--transport stdio|http] [--runs N] [--quiet] -- CLIENT CMD...
import { parseArgs } from 'node:util';
import { CLIENT_SCENARIOS } from '../src/targets/client/clientScenarios.ts';
import { judgeClientRun } from '../src/targets/client/judgeClient.ts';
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
    const judged = judgeClientRun(scenario, run, ['resetTimeoutOnProgress', 'maxTotalTimeout']);
    console.log(`\n=== ${scenario.name} (${values.transport}) run ${i + 1}: ${scenario.question}`);
    if (!values.quiet) {
      console.log('--- client side channel');
      for (const e of run.events) console.log(`  ${String(e.t).padStart(7)} ms  ${JSON.stringify(e)}`);
      for (const line of run.stderr) console.log(`  stderr: ${line}`);
      console.log('--- wire (scripted server)');
      for (const w of run.wire) console.log(`  ${String(w.t).padStart(7)} ms  ${w.dir ?? '  '} ${JSON.stringify(w.frame ?? { event: w.event, ...w, t: undefined })}`);
    }
    console.log(`--- behaviour ${JSON.stringify(judged.behaviour)}`);
    for (const v of judged.violations) console.log(`  VIOLATED ${v.invariant}: ${v.detail}`);
    for (const n of judged.notJudged) console.log(`  not judged: ${n}`);
    if (judged.violations.length > 0) failed++;
  }
}
console.log(`\n${failed} run(s) with findings`);
