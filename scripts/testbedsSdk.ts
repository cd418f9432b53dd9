/**
 * `npm run testbeds:sdk [language…]`: installs the SDK test beds of testbeds/<language>/ (each
 * manifest's `install` command, in SDK_TESTBED_LANGUAGES order), one line each, with its time.
 * A missing toolchain (exit 3) is reported and skipped; any other failure makes the run exit 1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { SDK_TESTBED_LANGUAGES, type SdkTestbedLanguage, type SdkTestbedManifest } from '../src/realtime/testbed/index.ts';

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !(SDK_TESTBED_LANGUAGES as readonly string[]).includes(a));
if (unknown.length > 0) {
  console.error(`testbeds:sdk: unknown language ${JSON.stringify(unknown[0])}: give one of ${SDK_TESTBED_LANGUAGES.join(', ')}, or none for all.`);
  process.exit(2);
}
const languages = (asked.length > 0 ? asked : SDK_TESTBED_LANGUAGES) as readonly SdkTestbedLanguage[];
let failed = false;
for (const language of languages) {
  const file = `testbeds/${language}/testbed.json`;
  if (!existsSync(file)) {
    console.log(`testbed sdk-${language}: not built yet (no ${file})`);
    continue;
  }
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as SdkTestbedManifest;
  const [program, ...args] = manifest.install;
  const t0 = performance.now();
  const run = spawnSync(program!, args, { stdio: 'inherit' });
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  if (run.status === 3) console.log(`testbed sdk-${language}: skipped (missing toolchain, see above; ${seconds} s)`);
  else if (run.status !== 0) {
    console.log(`testbed sdk-${language}: FAILED (exit ${run.status ?? run.signal}, ${seconds} s)`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
