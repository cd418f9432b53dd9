import { describe, expect, it } from 'vitest';
import {
  SDK_DIFFERENCES,
  SDK_LACKS,
  SDK_TESTBED_LANGUAGES,
  programTranscript,
  runTestbedPrograms,
  sdkTestbed,
  withoutKnownDifferences,
  type ProgramTranscript,
  type SdkTestbed,
  type SdkTestbedLanguage,
} from '../../src/targets/testbed/index.ts';
import { FIXED_PROGRAMS } from './fixedPrograms.ts';

/**
 * The same scripted programs (no race) on every installed SDK test bed over stdio, compared
 * frame by frame with the TypeScript 1.x test bed, modulo ids and the named SDK differences of
 * SDK_DIFFERENCES; the side channel's handler events must match exactly. Black box, real time.
 * A test bed that is not installed shows as a skipped test whose name says why.
 */
const beds = SDK_TESTBED_LANGUAGES.map((language) => sdkTestbed(language));
const installed = beds.filter((b): b is SdkTestbed => !('skipped' in b));
const reference = installed.find((b) => b.language === 'typescript');

const lacks = (language: SdkTestbedLanguage, program: string) => SDK_LACKS.find((l) => l.language === language && l.programs.includes(program));

/**
 * Every installed bed's transcripts by program name: one process per bed running the programs in
 * turn (those its SDK lacks left out), the beds in parallel.
 */
const exits = new Map<SdkTestbedLanguage, string | undefined>();
const transcripts = (async () => {
  const all = await Promise.all(
    installed.map(async (bed) => {
      const programs = FIXED_PROGRAMS.filter((f) => !lacks(bed.language, f.name));
      const run = await runTestbedPrograms(bed, programs);
      exits.set(bed.language, run.exit?.after);
      return [bed.language, new Map(programs.map((f, n) => [f.name, programTranscript(run.traces[n]!)]))] as const;
    }),
  );
  return new Map<SdkTestbedLanguage, Map<string, ProgramTranscript>>(all);
})();
// Each process's failure is reported by the test that reads it.
transcripts.catch(() => undefined);

describe('sameProgram: fixed scripted programs on every SDK test bed (stdio, real time)', () => {
  for (const bed of beds) {
    if ('skipped' in bed) {
      it.skip(`${bed.language}: skipped, ${bed.skipped}`, () => {});
      continue;
    }
    if (bed.language === 'typescript') continue;
    it.skipIf(reference === undefined)(`${bed.language} (${bed.manifest.sdk.name} ${bed.manifest.sdk.version}): same frames and handler events as typescript, modulo ids and its named differences`, async () => {
      const all = await transcripts;
      const fired = new Set<string>();
      const strip = (language: SdkTestbedLanguage, wire: readonly string[]) => {
        const undone = withoutKnownDifferences(language, wire);
        for (const name of undone.fired) fired.add(name);
        return undone.wire;
      };
      for (const f of FIXED_PROGRAMS) {
        if (lacks(bed.language, f.name)) continue;
        const theirs = all.get(bed.language)!.get(f.name)!;
        const ours = all.get('typescript')!.get(f.name)!;
        expect({ program: f.name, wire: strip(bed.language, theirs.wire), handler: theirs.handler }).toEqual({
          program: f.name,
          wire: strip('typescript', ours.wire),
          handler: ours.handler,
        });
      }
      // Every bed exits by itself at stdin EOF, as a stdio server must.
      expect(exits.get(bed.language)).toBe('eof');
      // A named difference that no longer happens is stale: remove it from SDK_DIFFERENCES.
      const named = SDK_DIFFERENCES.filter((d) => d.language === bed.language || d.language === 'typescript').map((d) => d.name);
      expect([...fired].sort()).toEqual([...named].sort());
    }, 60_000);
    for (const f of FIXED_PROGRAMS) {
      const lack = lacks(bed.language, f.name);
      if (lack) it.skip(`${bed.language}: "${f.name}" not run, ${lack.why}`, () => {});
    }
  }
  it.skipIf(reference === undefined)('typescript: the reference transcripts have the frames each program implies', async () => {
    const ts = (await transcripts).get('typescript')!;
    const [progress, error, roots, cancel, swallowed] = FIXED_PROGRAMS.map((f) => ts.get(f.name));
    expect(progress!.wire.filter((l) => l.includes('notifications/progress'))).toHaveLength(2);
    expect(error!.wire.at(-1)).toContain('"code":-32000');
    expect(roots!.wire.filter((l) => l.startsWith('← ') && l.includes('"method":"roots/list"'))).toHaveLength(1);
    // Answered once: each program's runPlan listens on its own inbox (ForwardingInbox).
    expect(roots!.wire.filter((l) => l.startsWith('→ ') && l.includes('"roots":[]'))).toHaveLength(1);
    // Cancelled and honoured: no answer after the cancel, the handler ends aborted.
    expect(cancel!.wire.at(-1)).toContain('notifications/cancelled');
    expect(cancel!.handler.at(-1)).toBe('end c1 aborted');
    // Swallowed: the handler returned a result after the cancel; the 1.x SDK does not write it.
    expect(swallowed!.wire.at(-1)).toContain('notifications/cancelled');
    expect(swallowed!.handler.at(-1)).toBe('end c1 swallowed');
    expect(exits.get('typescript')).toBe('eof');
  }, 60_000);
});
