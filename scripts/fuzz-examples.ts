/**
 * `npm run fuzz:examples`: the claims of docs/fuzz.md ("Fuzz your own server"), measured. Every
 * pitfall example is flagged with its invariant within the default budget; the correct examples
 * run clean over 5,000 runs; runs per second of each. Exits 1 when a claim fails.
 */
import { fuzzServer } from '../src/fuzz/index.ts';
import { DEFAULT_FUZZ_RUNS } from '../src/options/defaults.ts';

const CLEAN_RUNS = Number(process.env.MCP_SIM_CLEAN_RUNS ?? 5_000);

/** Paths under examples/servers/: the 1.x examples, then the 2.x ones (`v2/`). */
const faulty = [
  ['faulty/progressWithoutToken.ts', 'progress.token-requested'],
  ['faulty/progressNotIncreasing.ts', 'progress.increasing'],
  ['faulty/progressPercent.ts', 'progress.increasing'],
  ['faulty/totalChanges.ts', 'progress.total-stable'],
  ['faulty/progressAfterResult.ts', 'progress.after-response'],
  ['faulty/fetchWithoutSignal.ts', 'cancel.reaches-work'],
  ['faulty/swallowedAbort.ts', 'cancel.abort-swallowed'],
  ['faulty/catchAllIsError.ts', 'cancel.abort-swallowed'],
  ['faulty/zombieWork.ts', 'cancel.zombie-work'],
  ['faulty/neverEnds.ts', 'liveness.quiescent'],
  ['faulty/neverEndsPending.ts', 'cancel.never-ends'],
  ['v2/faulty/progressFixedToken.ts', 'progress.token-requested'],
  ['v2/faulty/progressPercent.ts', 'progress.increasing'],
  ['v2/faulty/fetchWithoutSignal.ts', 'cancel.reaches-work'],
  ['v2/faulty/swallowedAbort.ts', 'cancel.abort-swallowed'],
  ['v2/faulty/catchAllIsError.ts', 'cancel.abort-swallowed'],
  ['v2/faulty/neverEndsPending.ts', 'cancel.never-ends'],
] as const;
/** Clean over CLEAN_RUNS: no finding on the server, none of `cancel.abort-swallowed` in particular (the fix of the article, a tool that checks its signal between steps). */
const correct = ['crawler.ts', 'lowLevel.ts', 'stdioEntry.ts', 'crawlerRethrow.ts', 'stepsCheckSignal.ts', 'v2/crawler.ts', 'v2/serveStdio.ts', 'v2/crawlerRethrow.ts'];

let failed = false;
console.log(`| example | runs | runs/s | server findings | expected | result |`);
console.log(`|---|---:|---:|---|---|---|`);
for (const [file, expected] of faulty) {
  const report = await fuzzServer(`examples/servers/${file}`, { runs: DEFAULT_FUZZ_RUNS, shrink: false });
  const ids = report.findings.filter((f) => f.owner === 'server').map((f) => `${f.invariant} (${f.runs}, first #${f.firstCase})`);
  const ok = report.findings.some((f) => f.owner === 'server' && f.invariant === expected);
  failed ||= !ok;
  console.log(`| ${file} | ${report.runsDone} | ${Math.round(report.runsPerSecond)} | ${ids.join(', ')} | ${expected} | ${ok ? 'flagged' : 'MISSED'} |`);
}
for (const file of correct) {
  const report = await fuzzServer(`examples/servers/${file}`, { runs: CLEAN_RUNS, shrink: false });
  const ids = report.findings.filter((f) => f.owner === 'server').map((f) => `${f.invariant} (${f.runs})`);
  const ok = ids.length === 0 && !report.stateful;
  failed ||= !ok;
  console.log(`| ${file} | ${report.runsDone} | ${Math.round(report.runsPerSecond)} | ${ids.join(', ') || 'none'} | none | ${ok ? 'clean' : 'FALSE ALARM'} |`);
}
process.exitCode = failed ? 1 : 0;
