/**
 * `npm run examples [language…]`: builds the example servers of every other language (the
 * pitfall servers of `examples/servers/<language>/`, listed in its `servers.json`) by running its
 * `install.sh` into its cache (`$MCP_SIM_EXAMPLES_CACHE/<language>`, default
 * `node_modules/.cache/mcp-sim/examples/<language>`), from that language's registry, pinned.
 * Prints each language's last line (`examples python: ready (…)`) and a summary; exits 1 when one
 * failed, and says which toolchain is missing when an install exits 3. The SDK test beds of
 * testbeds/ are another thing, built by `npm run testbeds:sdk`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
// `npm run testbeds`, this script's name until the example servers stopped being called test
// beds: kept for one release so scripts that call it keep working, and told what to call now.
if (process.env.npm_lifecycle_event === 'testbeds') console.log('npm run testbeds is now npm run examples (the old name goes in the next release); running npm run examples.');
const servers = join(root, 'examples', 'servers');
const languages = readdirSync(servers, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(servers, d.name, 'install.sh')))
  .map((d) => d.name)
  .filter((l) => process.argv.length <= 2 || process.argv.slice(2).includes(l));

if (languages.length === 0) {
  console.log('examples: no examples/servers/<language>/install.sh to run');
  process.exit(0);
}
const cacheRoot = process.env.MCP_SIM_EXAMPLES_CACHE ?? join(root, 'node_modules', '.cache', 'mcp-sim', 'examples');
const rows: { language: string; status: string; line: string; seconds: number }[] = [];
for (const language of languages) {
  const started = Date.now();
  const run = spawnSync('bash', [join(servers, language, 'install.sh')], { cwd: join(servers, language), env: { ...process.env, MCP_SIM_EXAMPLES_CACHE: cacheRoot }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const out = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n');
  // A ready install's last line is its own on stdout; a build tool's progress (cargo's
  // `Finished …` on stderr) would otherwise stand in for it.
  const line = (run.status === 0 ? (run.stdout ?? '').trim().split('\n') : out).at(-1) ?? '';
  const status = run.status === 0 ? 'ready' : run.status === 3 ? 'missing toolchain' : `failed (exit ${run.status ?? run.signal})`;
  if (run.status !== 0) process.stderr.write(`${out.slice(-20).join('\n')}\n`);
  console.log(`${language}: ${status}: ${line}`);
  rows.push({ language, status, line, seconds: Math.round((Date.now() - started) / 100) / 10 });
}
console.log('\n| language | result | seconds | last line |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.language} | ${r.status} | ${r.seconds} | ${r.line.replace(/\|/g, '\\|')} |`);
const bad = rows.filter((r) => r.status !== 'ready');
if (bad.length > 0) {
  console.error(`\nexamples: ${bad.map((r) => `${r.language} ${r.status}`).join(', ')}: install the toolchain it names (Python 3.11, Go, Rust/cargo, Java 17 + Maven) and run npm run examples again.`);
  process.exit(1);
}
