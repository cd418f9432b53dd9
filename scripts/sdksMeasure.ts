/**
 * `npm run sdks:measure [-- language[@version]…]`: each SDK test bed's start-up (spawn to the end
 * of the handshake) per release and transport, median of 3 processes, and the time per call of a
 * 10 ms program (10 calls on one connection). Default: every release of every language. Black
 * box, real time: on a shared machine the numbers move with its load. Releases not installed are
 * named and left out.
 */
import { runTestbedPrograms, SDK_TESTBED_LANGUAGES, sdkTestbed, sdkTestbedManifest, sdkTestbedReleases, type SdkTestbedLanguage, type SdkTestbedTransport } from '../src/targets/testbed/index.ts';

const PROCESSES = 3;
const CALLS = 10;
const TEN_MS = { program: { steps: [{ kind: 'sleep' as const, ms: 10 }], end: { kind: 'result' as const }, onAbort: 'honour' as const } };
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const asked = process.argv.slice(2);
const wanted: [SdkTestbedLanguage, string | undefined][] = (asked.length > 0 ? asked : SDK_TESTBED_LANGUAGES).map((a) => {
  const [language, version] = a.split('@') as [string, string | undefined];
  if (!(SDK_TESTBED_LANGUAGES as readonly string[]).includes(language)) {
    console.error(`sdks:measure: unknown language ${JSON.stringify(language)}: give one of ${SDK_TESTBED_LANGUAGES.join(', ')} (optionally @version)`);
    process.exit(2);
  }
  return [language as SdkTestbedLanguage, version];
});
console.log('| SDK | release | transport | start-up (median of 3) | per call |\n|---|---|---|---|---|');
for (const [language, only] of wanted) {
  const manifest = sdkTestbedManifest(language);
  if (!manifest) {
    console.log(`| ${language} | – | – | skipped: no testbeds/${language}/testbed.json | |`);
    continue;
  }
  for (const version of only ? [only] : sdkTestbedReleases(manifest).map((r) => r.version)) {
    const bed = sdkTestbed(language, { version });
    if ('skipped' in bed) {
      console.log(`| ${manifest.sdk.name} | ${version} | – | skipped: ${bed.skipped} | |`);
      continue;
    }
    for (const transport of ['stdio', ...bed.modes.map((m) => `http-${m}`)] as SdkTestbedTransport[]) {
      const starts: number[] = [];
      const perCall: number[] = [];
      for (let n = 0; n < PROCESSES; n++) {
        const run = await runTestbedPrograms(bed, Array.from({ length: CALLS }, () => TEN_MS), { transport, tailMs: 0 });
        starts.push(run.startupMs);
        perCall.push((run.totalMs - run.startupMs) / CALLS);
      }
      console.log(`| ${manifest.sdk.name} | ${version} | ${transport} | ${Math.round(median(starts))} ms (${starts.map(Math.round).join(', ')}) | ${Math.round(median(perCall))} ms |`);
    }
  }
}
