/**
 * `npm run fuzz:testbed [-- <package@version> <entry>]`: published MCP servers as a test bed for
 * `mcp-sim fuzz`. Always fuzzes @modelcontextprotocol/server-everything (a devDependency, offline);
 * a package named on the command line is installed with npm into
 * node_modules/.cache/mcp-sim/testbed/ first (the only step that needs the registry) and its
 * entry module fuzzed the same way. Prints each report; docs/fuzz-findings.md is written from it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatFuzzReport, fuzzServer } from '../src/fuzz/index.ts';

const RUNS = Number(process.env.MCP_SIM_RUNS ?? 500);
const targets: string[] = ['node_modules/@modelcontextprotocol/server-everything/dist/server/index.js'];

const [spec, entry] = process.argv.slice(2);
if (spec !== undefined) {
  if (entry === undefined) throw new Error('fuzz-testbed: give the entry module inside the package after its name, e.g. some-mcp@1.2.3 dist/server.js');
  const dir = join('node_modules', '.cache', 'mcp-sim', 'testbed', spec.replace(/[/@]/g, '_'));
  const name = spec.replace(/(?<=.)@[^@]*$/, '');
  if (!existsSync(join(dir, 'node_modules', name))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--prefix', dir, spec], { stdio: 'inherit' });
  }
  targets.push(join(dir, 'node_modules', name, entry));
}

for (const module of targets) {
  const report = await fuzzServer(module, { runs: RUNS });
  console.log(`\n## ${module}\n`);
  console.log(formatFuzzReport(report, new Map()));
}
