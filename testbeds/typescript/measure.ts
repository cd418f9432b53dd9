/**
 * `node --import tsx testbeds/typescript/measure.ts [version…]`: the TypeScript test bed's
 * start-up (spawn to the end of the handshake) per release and transport, median of 3 processes,
 * and the time per call of a 10 ms program (10 calls on one connection). Black box, real time:
 * on a shared machine the numbers move with its load. Releases not installed are named and left out.
 */
import { runTestbedPrograms, sdkTestbed, sdkTestbedManifest, sdkTestbedReleases, type SdkTestbedTransport } from '../../src/realtime/testbed/index.ts';

const PROCESSES = 3;
const CALLS = 10;
const TEN_MS = { program: { steps: [{ kind: 'sleep' as const, ms: 10 }], end: { kind: 'result' as const }, onAbort: 'honour' as const } };
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const asked = process.argv.slice(2);
const versions = asked.length > 0 ? asked : sdkTestbedReleases(sdkTestbedManifest('typescript')!).map((r) => r.version);
console.log('| release | transport | start-up (median of 3) | per call |\n|---|---|---|---|');
for (const version of versions) {
  const bed = sdkTestbed('typescript', { version });
  if ('skipped' in bed) {
    console.log(`| ${version} | – | skipped: ${bed.skipped} | |`);
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
    console.log(`| ${version} | ${transport} | ${Math.round(median(starts))} ms (${starts.map(Math.round).join(', ')}) | ${Math.round(median(perCall))} ms |`);
  }
}

