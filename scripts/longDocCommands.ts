/**
 * The commands of README.md and docs/ that test/docs/commands.test.ts does not run itself, each
 * with what runs it: an npm script, a test file, or `.ci/run`. Too long for `npm test` (a full
 * campaign, a benchmark, a mutation run), run by another test already (as printed there), or a
 * template whose `<…>` or file is the reader's own (run instantiated by the test named).
 * `npm run docs:long` runs, as printed, the ones it is named for. A command of the docs in none
 * of these lists fails the test, and so does an entry here that the docs no longer show.
 */
export interface LongCommand {
  readonly command: string;
  /** `npm run <script>`, a test file, or `.ci/run`. */
  readonly by: string;
  readonly why: string;
}

const SE = 'node_modules/@modelcontextprotocol/server-everything/dist/server/index.js';
const GEMINI = 'node_modules/.cache/mcp-sim/testbed/gemini-mcp-tool_1.1.8/node_modules/gemini-mcp-tool/dist/index.js';

export const LONG_COMMANDS: readonly LongCommand[] = [
  { command: 'npx mcp-sim check --runs 2 -- node test/realtime/fixtures/hostileServer.mjs --mode progress-flood', by: 'test/realtime/hostile.test.ts', why: 'a hostile server: run as printed, with its finding checked' },
  { command: 'npx mcp-sim check --runs 2 -- node test/realtime/fixtures/hostileServer.mjs --mode huge-frame', by: 'test/realtime/hostile.test.ts', why: 'a hostile server: run as printed, with its finding checked' },
  { command: 'npx mcp-sim check --runs 2 -- node test/realtime/fixtures/hostileServer.mjs --mode log-flood --count 20000', by: 'test/realtime/hostile.test.ts', why: 'a hostile server: run as printed, with its finding checked' },
  { command: 'npx mcp-sim check --runs 2 -- node test/realtime/fixtures/printsToStdout.mjs', by: 'test/realtime/hostile.test.ts', why: 'exits 2 on purpose (the refusal), checked there' },
  { command: 'npx mcp-sim check --runs 2 -- node_modules/.cache/mcp-sim/examples/python/venv/bin/python test/realtime/fixtures/prints_to_stdout.py', by: 'test/realtime/hostile.test.ts', why: 'exits 2 on purpose (the refusal); needs the examples\' Python (npm run examples)' },
  { command: 'npm run hostile', by: 'npm run hostile', why: 'a measurement: several minutes of hostile servers' },
  { command: 'npm install && npx mcp-sim check', by: 'npm run check', why: 'the default 2,000-run campaign (about 40 s on 2 shared cores); .ci/run installs with npm ci' },
  { command: 'npm test', by: '.ci/run', why: 'the whole suite' },
  { command: 'npx mcp-sim check --junit junit.xml --html report.html', by: 'npm run docs:long', why: 'the default 2,000-run campaign' },
  { command: 'npm run bench -- --quick', by: 'npm run bench', why: 'a benchmark (under a minute alone)' },
  { command: 'npx mcp-sim explore --scenario my-race.json --json out.json', by: 'test/cli/explore.test.ts', why: 'a template: my-race.json is the reader\'s scenario (the test explores a scenario file with --json)' },
  { command: 'npx mcp-sim explore --scenario my-race.json --junit explore.xml --report explore.md', by: 'test/report/exploreReports.test.ts', why: 'a template: my-race.json is the reader\'s scenario (the test writes both reports)' },
  {
    command: 'npx mcp-sim replay --seed 20261130 --case 7 --profiles http-2026 --no-server-requests --expect timeout.max-total --made-with mcp-sim@0.1.0,@modelcontextprotocol/server@2.4.0 --sdk node_modules/@modelcontextprotocol',
    by: 'test/cli/findings2x.test.ts',
    why: 'every command of docs/findings-2.x.md, run as printed there',
  },
  { command: 'npx mcp-sim replay --baseline "<invariant> <variant> <shape>" --mermaid', by: 'test/cli/replayFreshProcess.test.ts', why: 'a template: the test replays baseline entries and every replay command docs/findings.md cites' },
  { command: `npx mcp-sim check ${SE}`, by: 'npm run docs:long', why: 'the default 500-run campaign of a published server module' },
  { command: `npx mcp-sim replay ${SE} --seed 20261130 --case 27 --expect cancel.zombie-work`, by: 'test/fuzz/cli.test.ts', why: 'every replay command of docs/fuzz-findings.md, in a fresh process' },
  { command: `npx mcp-sim replay ${SE} --seed 20261130 --case 96 --expect liveness.quiescent`, by: 'test/fuzz/cli.test.ts', why: 'every replay command of docs/fuzz-findings.md, in a fresh process' },
  { command: `npx mcp-sim replay ${SE} --seed 20261130 --case 30 --expect cancel.reaches-work`, by: 'test/fuzz/cli.test.ts', why: 'every replay command of docs/fuzz-findings.md, in a fresh process' },
  { command: `npx mcp-sim check ${GEMINI}`, by: 'npm run fuzz:testbed', why: 'installs the server from the npm registry first' },
  { command: 'npx mcp-sim check --runs 6 --rate-runs 3 -- node_modules/.cache/mcp-sim/examples/python/venv/bin/python examples/servers/python/cancel_not_wired.py', by: 'test/docs/exampleCommands.test.ts', why: 'real time, Python start-up ~1 s per process; needs the example servers (npm run examples)' },
  { command: 'npm run integrations', by: '.ci/run', why: 'installs the pytest plugin\'s pinned test venv from PyPI (about 45 s the first time)' },
  { command: 'npm run test:integrations', by: '.ci/run', why: 'real time: the pytest and go test suites of integrations/, about 1.5 minutes; needs the example servers (npm run examples)' },
  { command: 'python3 -m venv .venv && .venv/bin/pip install mcp==2.3.0', by: 'test/docs/yourServer.test.ts', why: "the README's own venv for a Python server: installs from PyPI (the test installs the same pins offline, from the wheels npm run examples kept)" },
  { command: 'npx mcp-sim check -- .venv/bin/python examples/your-server/python/server.py', by: 'test/docs/yourServer.test.ts', why: 'real time, Python start-up ~1 s per process (about a minute); runs in the venv the command before makes' },
  { command: 'npx mcp-sim check --cwd examples/your-server/go -- go run .', by: 'test/docs/yourServer.test.ts', why: 'real time, go run per process; needs the go-sdk modules npm run examples fetched' },
  { command: 'npx mcp-sim check examples/your-server/typescript/server.ts', by: 'test/docs/yourServer.test.ts', why: 'the default 500-run campaign of a server module (about 40 s on 2 busy cores)' },
  { command: 'npx mcp-sim check -- node_modules/.cache/mcp-sim/examples/rust/target/debug/photos', by: 'test/docs/yourServer.test.ts', why: 'real time on the build of examples/your-server/rust that npm run examples keeps' },
  { command: 'npx mcp-sim check --runs 12 --rate-runs 2 -- java -jar node_modules/.cache/mcp-sim/examples/java/photos/photos.jar', by: 'test/docs/yourServer.test.ts', why: 'real time on the jar of examples/your-server/java that npm run examples keeps, JVM start-up ~1 s per process' },
  { command: 'npx mcp-sim check sdk@1.26.0 --runs 200', by: 'npm run docs:long', why: 'installs that release from the npm registry into mcp-sim\'s cache the first time' },
  { command: 'npx mcp-sim check testbed:go@v1.8.0 --runs 20', by: 'npm run docs:long', why: 'real time on the Go test bed (npm run testbeds:sdk), installed first where it is not (about 3 minutes on 2 busy cores)' },
  { command: 'npx mcp-sim check client:python@2.3.0 --transport stdio --scenario close --runs 1', by: 'npm run docs:long', why: 'needs the Python test bed\'s client (npm run testbeds:sdk), installed first where it is not' },
  { command: 'npx mcp-sim check client:go --transport stdio --scenario close --runs 1', by: 'test/testbeds/clients.test.ts', why: 'needs the Go test bed (npm run testbeds:sdk); the test runs it as printed' },
  { command: 'npx mcp-sim check client:go', by: 'npm run docs:long', why: 'real time: 24 generated client cases over stdio and HTTP, each new finding shrunk and re-run 3 times (a few minutes)' },
  { command: 'npm run sdks:clients:generated', by: 'npm run sdks:clients:generated', why: "the generated client cases on every SDK's newest client, real time (tens of minutes)" },
  { command: 'npm run sdks:clients', by: 'npm run sdks:clients', why: 'every SDK client, newest and oldest release, real time (tens of minutes)' },
  { command: 'npx mcp-sim check testbed:go --runs 20', by: 'npm run docs:long', why: 'real time on the Go test bed, installed first where it is not (test/testbeds/checkTarget.test.ts runs a short one on the TypeScript bed)' },
  { command: 'npx mcp-sim check testbed:python@2.0.0 --runs 20', by: 'npm run docs:long', why: 'real time, Python start-up of seconds per process; installs that release first' },
  { command: 'npx mcp-sim check testbed:rust --runs 20 --update-baseline', by: 'npm run docs:long', why: 'real time on the Rust test bed (a cold build takes minutes); rewrites the release baseline of the folder it runs in' },
  { command: 'npx mcp-sim matrix testbed:rust --releases 2.1.0,3.11.0 --runs 20', by: 'npm run docs:long', why: 'real time on two Rust releases, each built first where it is not' },
  { command: 'npx mcp-sim bisect testbed:rust --invariant cancel.no-response-after --runs 20 --seed 3 --rate-runs 3', by: 'npm run docs:long', why: 'real time on four Rust releases (about 90 s on 2 cores)' },
  { command: 'MCP_SIM_SDK_VERSION=v1.6.1 sh testbeds/go/install.sh', by: 'npm run testbeds:sdk', why: 'installs a pinned older release of the go SDK test bed (testbeds:sdk installs every pinned release this way)' },
  { command: 'npx vitest run --config vitest.testbeds.config.ts test/testbeds/goReleases.test.ts', by: 'npm run test:testbeds', why: 'the go releases test, real time, minutes; test:testbeds runs it among the test-bed tests' },
  { command: 'MCP_SIM_SDK_VERSION=2.0.0 bash testbeds/java/install.sh', by: 'npm run testbeds:sdk', why: 'installs a pinned older release of the java SDK test bed (testbeds:sdk installs every pinned release this way)' },
  { command: 'npx vitest run --config vitest.testbeds.config.ts test/testbeds/javaReleases.test.ts', by: 'npm run test:testbeds', why: 'the java releases test, real time, minutes; test:testbeds runs it among the test-bed tests' },
  { command: 'MCP_SIM_SDK_VERSION=1.30.0 bash testbeds/python/install.sh', by: 'npm run testbeds:sdk', why: 'installs a pinned older release of the python SDK test bed (testbeds:sdk installs every pinned release this way)' },
  { command: 'npx vitest run --config vitest.testbeds.config.ts test/testbeds/pythonReleases.test.ts', by: 'npm run test:testbeds', why: 'the python releases test, real time, minutes; test:testbeds runs it among the test-bed tests' },
  { command: 'MCP_SIM_SDK_VERSION=1.25.3 bash testbeds/typescript/install.sh', by: 'npm run testbeds:sdk', why: 'installs a pinned older release of the typescript SDK test bed (testbeds:sdk installs every pinned release this way)' },
  { command: 'npx vitest run --config vitest.testbeds.config.ts test/testbeds/typescriptReleases.test.ts', by: 'npm run test:testbeds', why: 'the typescript releases test, real time, minutes; test:testbeds runs it among the test-bed tests' },
  { command: 'bash testbeds/java/install.sh', by: 'npm run testbeds:sdk', why: 'builds the Java SDK test bed (Maven, a class-data archive trained at install)' },
  { command: 'npm run sdks:measure -- typescript', by: 'npm run sdks:measure', why: 'real time: start-up of every TypeScript release and transport, 3 processes each' },
  { command: 'npm run fuzz:languages', by: 'npm run fuzz:languages', why: 'the full black-box pass of every language: 500 runs per correct server, 60 per faulty one, real time (about 75 minutes on 2 cores)' },
  { command: 'npm run testbeds:sdk', by: '.ci/run', why: 'builds the SDK test beds of five languages (a cold Rust build alone takes minutes)' },
  { command: 'npm run test:testbeds', by: '.ci/run', why: 'the tests on the test beds, once .ci/run has built them (npm run examples, npm run testbeds:sdk)' },
  { command: `npx mcp-sim replay ${GEMINI} --seed 20261130 --case 1 --expect harness.offline`, by: 'npm run fuzz:testbed', why: 'installs the server from the npm registry first' },
  { command: `npx mcp-sim replay ${GEMINI} --seed 20261130 --case 26 --expect cancel.zombie-work`, by: 'npm run fuzz:testbed', why: 'installs the server from the npm registry first' },
  { command: 'npm run mutants', by: 'npm run mutants', why: 'about 8 minutes' },
  { command: 'npm run mutants -- --runs 5000', by: 'npm run mutants', why: 'longer still' },
  { command: 'npm run mutants -- --filter max-total', by: 'npm run mutants', why: 'a mutation run' },
  { command: 'npm run mutants -- --report-only', by: 'npm run mutants', why: 'reads the results of a mutation run' },
  { command: 'npx mcp-sim check sdk@2.4.0 --spec 2026-07-28', by: 'npm run docs:long', why: 'a 2,000-run campaign on the 2.x pair (installed into mcp-sim\'s cache once)' },
  { command: 'npx mcp-sim replay --seed S --case K --spec 2026-07-28 --sdk <that folder>', by: 'test/cli/spec2026.test.ts', why: 'a template: S, K and the folder are the reader\'s' },
  { command: 'npx mcp-sim baseline --spec 2026-07-28 --sdk 2.4.0 --update', by: 'npm run docs:long', why: 'a 10,000-run baseline build' },
  { command: 'npx mcp-sim baseline --spec 2026-07-28 --sdk 2.4.0 --table', by: 'npm run docs:long', why: 'loads the 2.x pair from the cache --update filled' },
  { command: 'M=$(node --import tsx mutants/prepare.ts result-after-cancel)', by: 'test/cli/walkthrough.test.ts', why: 'the walkthrough, its steps run by the test' },
  { command: 'npx mcp-sim check sdk@$M --report race.md', by: 'test/cli/walkthrough.test.ts', why: 'the walkthrough, its steps run by the test' },
  { command: 'npx mcp-sim replay .mcp-sim/repro/cancel.no-response-after.json --sdk $M --emit-test test/regressions/no-response-after.test.ts', by: 'test/cli/walkthrough.test.ts', why: 'the walkthrough, its steps run by the test' },
  { command: 'MCP_SIM_SDK=$M npx vitest run test/regressions/no-response-after.test.ts', by: 'test/cli/walkthrough.test.ts', why: 'the walkthrough, its steps run by the test' },
  { command: 'npx vitest run test/regressions/no-response-after.test.ts', by: 'test/cli/walkthrough.test.ts', why: 'the walkthrough, its steps run by the test' },
];
