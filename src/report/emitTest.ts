import type { SimCase } from '../campaign/simCase.ts';
import type { InvariantId } from '../model/invariants.ts';
import { madeWithArg, type MadeWith } from '../options/replayCaseCommand.ts';

/** What an emitted test asserts: the finding is gone (it fails while it reproduces), or still there (it fails once fixed). */
export type EmittedExpectation = 'absent' | 'present';

/** One replayed case as a regression test. */
export interface EmittedTestSpec {
  readonly simCase: SimCase;
  readonly invariant: InvariantId;
  /** The finding's own words in the replay, for the test's title and comment. */
  readonly message: string | undefined;
  /** The replay command that named the case, for the comment. */
  readonly origin: string;
  readonly madeWith: MadeWith;
  readonly expectation: EmittedExpectation;
}

/**
 * A vitest file that replays one case through mcp-sim's public API (`runChecked` of the package
 * `mcp-sim`), so it runs unchanged in any project that has mcp-sim installed (and in mcp-sim's
 * own tree, by package self-reference). With `absent` it fails while the finding reproduces: a
 * regression test to keep once the SDK is fixed; with `present` it fails once it is fixed: a
 * test that pins a known bug.
 */
export function emittedTest(spec: EmittedTestSpec): string {
  const { invariant, expectation } = spec;
  const title = expectation === 'absent' ? `${invariant} no longer happens` : `${invariant} still happens`;
  const words = spec.message ? `: ${spec.message}` : '';
  return [
    `// Emitted by: ${spec.origin}`,
    `// Made with ${madeWithArg(spec.madeWith)}. It replays the case below through mcp-sim's public API`,
    expectation === 'absent'
      ? `// and fails while ${invariant} reproduces (keep it once the SDK is fixed).`
      : `// and fails once ${invariant} no longer reproduces (the bug is fixed: drop or invert it).`,
    `import { expect, it } from 'vitest';`,
    `import { runChecked } from 'mcp-sim';`,
    '',
    `const simCase = ${JSON.stringify(spec.simCase, null, 2)} as const;`,
    '',
    `it(${JSON.stringify(`${title}${words}`)}, async () => {`,
    `  const { findings } = await runChecked(simCase.scenario as never, { tape: [...simCase.tape], seed: simCase.seed });`,
    `  const found = findings.filter((f) => f.invariant === ${JSON.stringify(invariant)}).map((f) => f.message);`,
    expectation === 'absent' ? `  expect(found).toEqual([]);` : `  expect(found.length).toBeGreaterThan(0);`,
    '});',
    '',
  ].join('\n');
}
