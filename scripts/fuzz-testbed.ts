/**
 * `npm run fuzz:testbed [-- <package@version> <entry>]`: published MCP servers as a test bed for
 * `mcp-sim fuzz`. Fuzzes @modelcontextprotocol/server-everything (a devDependency, offline) and
 * gemini-mcp-tool (installed with npm into node_modules/.cache/mcp-sim/testbed/ the first time:
 * the only step that needs the registry); a package named on the command line is installed and
 * fuzzed the same way. Prints each report; docs/fuzz-findings.md is written from it. Then runs,
 * each in a fresh process, every replay command that document cites for an installed test-bed
 * server (`npm test` replays the others), and exits 1 when one does not reproduce its finding.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatFuzzReport, fuzzServer } from '../src/fuzz/index.ts';

const RUNS = Number(process.env.MCP_SIM_RUNS ?? 500);

/** Published servers whose tools send progress, as `[package@version, entry module inside it]`. */
const PUBLISHED: readonly (readonly [spec: string, entry: string])[] = [['gemini-mcp-tool@1.1.8', 'dist/index.js']];

/** The entry module of `spec`, installed into mcp-sim's cache (never into the project) when missing. */
function installed(spec: string, entry: string): string {
  const dir = join('node_modules', '.cache', 'mcp-sim', 'testbed', spec.replace(/[/@]/g, '_'));
  const name = spec.replace(/(?<=.)@[^@]*$/, '');
  if (!existsSync(join(dir, 'node_modules', name))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--prefix', dir, spec], { stdio: 'inherit' });
  }
  return join(dir, 'node_modules', name, entry);
}

const [spec, entry] = process.argv.slice(2);
if (spec !== undefined && entry === undefined) throw new Error('fuzz-testbed: give the entry module inside the package after its name, e.g. some-mcp@1.2.3 dist/server.js');
const targets = [
  'node_modules/@modelcontextprotocol/server-everything/dist/server/index.js',
  ...[...PUBLISHED, ...(spec !== undefined ? [[spec, entry!] as const] : [])].map(([s, e]) => installed(s, e)),
];

for (const module of targets) {
  const report = await fuzzServer(module, { runs: RUNS });
  console.log(`\n## ${module}\n`);
  console.log(formatFuzzReport(report, new Map()));
}

const TESTBED = join('node_modules', '.cache', 'mcp-sim', 'testbed');
const cited = [...readFileSync('docs/fuzz-findings.md', 'utf8').matchAll(/^npx mcp-sim replay (\S+) (--seed \d+ --case \d+ --expect ([a-z.-]+))$/gm)];
let failed = false;
for (const [command, module, rest, expected] of cited) {
  if (!module!.startsWith(TESTBED)) continue;
  let stdout: string;
  try {
    stdout = execFileSync(process.execPath, ['bin/mcp-sim.js', 'replay', module!, ...rest!.split(' ')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    stdout = (error as { stdout?: string }).stdout ?? '';
  }
  const ok = stdout.includes(`reproduced: ${expected}`) && !stdout.includes('NOT reproduced');
  failed ||= !ok;
  console.log(`${ok ? 'reproduced' : 'NOT REPRODUCED'}  ${command}`);
}
process.exitCode = failed ? 1 : 0;
