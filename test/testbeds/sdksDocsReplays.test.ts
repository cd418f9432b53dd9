import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../cli/runMain.ts';
import { sdkTestbed, type SdkTestbedLanguage } from '../../src/targets/testbed/index.ts';

/**
 * docs/sdks.md's generated findings (`npm run sdks:docs`) each print a replay command. A sample
 * runs here as printed, through `main`: the fastest beds' findings whose minimal case failed on
 * every re-run when the page was made. Real time: a replay that reproduces once of 5 counts.
 */
const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'sdks.md'), 'utf8');
/** The test bed a case file names: an old `testbed-check` file's `language` and `version`, or a replay file's target. */
const bedOf = (file: string): { language: SdkTestbedLanguage; version: string } => {
  const f = JSON.parse(readFileSync(join(root, file), 'utf8')) as { language?: string; version?: string; target?: { language?: string; release?: string } };
  return { language: (f.language ?? f.target?.language) as SdkTestbedLanguage, version: (f.version ?? f.target?.release)! };
};
const replays = [...page.matchAll(/^- Replay: `npx mcp-sim (replay (docs\/sdks-cases\/\S+\.json))`$/gm)].map((m) => ({
  args: m[1]!.split(' '),
  file: m[2]!,
  ...bedOf(m[2]!),
}));
const steady = replays.filter((r) => {
  const rate = (JSON.parse(readFileSync(join(root, r.file), 'utf8')) as { rate: { hits: number; runs: number } }).rate;
  return rate.hits === rate.runs;
});
const sample = ['go', 'rust', 'typescript', 'python', 'java'].flatMap((l) => steady.filter((r) => r.language === l)).slice(0, 3);

describe('docs/sdks.md: the generated findings replay from their printed commands', () => {
  it('the page has generated findings with replay commands and their case files', () => {
    expect(replays.length).toBeGreaterThan(0);
    expect(sample.length).toBeGreaterThan(0);
  });

  for (const r of sample) {
    const bed = sdkTestbed(r.language, { version: r.version });
    it.skipIf('skipped' in bed)(`replays ${r.file} on ${r.language} ${r.version}${'skipped' in bed ? ` (${bed.skipped})` : ''}`, async () => {
      const run = await runMain([...r.args, '--rate-runs', '5']);
      expect(run.stdout, run.stdout + run.stderr).toMatch(/^reproduced: /m);
      expect(run.code).toBe(0);
    });
  }
});
