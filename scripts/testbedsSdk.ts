/**
 * `npm run testbeds:sdk [language…] [--default-only]`: installs the SDK test beds of
 * testbeds/<language>/, every release each manifest pins (`releases`, newest first), in
 * SDK_TESTBED_LANGUAGES order, one line per release with its time. `--default-only` installs
 * only each language's default release. A missing toolchain (exit 3) is reported and skipped;
 * any other failure makes the run exit 1 (after the other installs, so one report shows all).
 */
import { performance } from 'node:perf_hooks';
import { installSdkTestbed, SDK_TESTBED_LANGUAGES, sdkTestbedManifest, sdkTestbedReleases, type SdkTestbedLanguage } from '../src/targets/testbed/index.ts';

const args = process.argv.slice(2);
const defaultOnly = args.includes('--default-only');
const asked = args.filter((a) => !a.startsWith('--'));
const unknown = asked.filter((a) => !(SDK_TESTBED_LANGUAGES as readonly string[]).includes(a));
if (unknown.length > 0) {
  console.error(`testbeds:sdk: unknown language ${JSON.stringify(unknown[0])}: give one of ${SDK_TESTBED_LANGUAGES.join(', ')}, or none for all.`);
  process.exit(2);
}
const languages = (asked.length > 0 ? asked : SDK_TESTBED_LANGUAGES) as readonly SdkTestbedLanguage[];
let failed = false;
for (const language of languages) {
  const manifest = sdkTestbedManifest(language);
  if (!manifest) {
    console.log(`testbed sdk-${language}: not built yet (no testbeds/${language}/testbed.json)`);
    continue;
  }
  const releases = sdkTestbedReleases(manifest).slice(0, defaultOnly ? 1 : undefined);
  for (const { version } of releases) {
    const t0 = performance.now();
    const { code, lastLine } = await installSdkTestbed(language, { version, onLine: (line) => console.log(`  ${line}`) });
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    if (code === 3) {
      console.log(`testbed sdk-${language} ${version}: skipped (missing toolchain: ${lastLine}; ${seconds} s)`);
      break;
    }
    if (code !== 0) {
      console.log(`testbed sdk-${language} ${version}: FAILED (exit ${code}, ${seconds} s): ${lastLine}`);
      failed = true;
    } else console.log(`testbed sdk-${language} ${version}: ready (${seconds} s)`);
  }
}
process.exit(failed ? 1 : 0);
