import { describe, expect, it } from 'vitest';
import { JUDGED_ON_A_REAL_CLOCK } from '../../src/model/clock.ts';
import { ADVICE_LANGUAGES, adviceFor, LANGUAGE_ADVICE, sdkAdvice } from '../../src/report/languageAdvice.ts';
import { blackBoxSees } from '../../src/targets/endpoint/blackBoxSees.ts';
import type { InvariantId } from '../../src/model/invariants.ts';

/** What a black-box server (a process, a URL) can be found to break: the server's invariants less what it cannot judge. */
function blackBoxIds(): InvariantId[] {
  const sees = blackBoxSees({ sees: [], cannotSee: [] } as never);
  const not = new Set(sees.notJudged.flatMap((n) => (n.invariants === 'family' ? [] : [...n.invariants])));
  return [...JUDGED_ON_A_REAL_CLOCK.server].filter((id) => !not.has(id));
}

describe('advice in the server\'s language', () => {
  it('every invariant a black-box server can break has a fix in every language and a language-neutral one, each its own', () => {
    for (const id of blackBoxIds()) {
      const fixes = LANGUAGE_ADVICE[id];
      expect(fixes, id).toBeDefined();
      const texts = ADVICE_LANGUAGES.map((l) => fixes![l]);
      expect(texts.every((t) => typeof t === 'string' && t.length > 20), id).toBe(true);
      expect(new Set(texts).size, id).toBe(texts.length);
    }
  });

  it('Python: a sync def runs in a worker thread a cancel cannot stop (async def, anyio); progress as i, total, not a percentage', () => {
    expect(adviceFor('progress.after-cancel', 'python')).toMatch(/plain `def` tool runs in a worker thread the cancel cannot stop.*`async def`.*anyio/);
    expect(adviceFor('progress.increasing', 'python')).toMatch(/ctx\.report_progress\(i, total\).*not a rounded percentage/);
  });

  it('each language names its own way to stop on a cancel; an unknown language gets no TypeScript', () => {
    expect(adviceFor('progress.after-cancel', 'go')).toContain('ctx.Done()');
    expect(adviceFor('progress.after-cancel', 'rust')).toMatch(/CancellationToken.*ct\.cancelled\(\)/);
    expect(adviceFor('progress.after-cancel', 'java')).toContain('Mono');
    expect(adviceFor('progress.after-cancel', 'typescript')).toContain('extra.signal');
    for (const id of blackBoxIds()) expect(adviceFor(id, undefined), id).not.toMatch(/extra\.signal|ctx\.Done|async def/);
  });

  it("what is listed apart as the SDK's says so, naming the language's SDK", () => {
    expect(sdkAdvice('python')).toMatch(/the `mcp` package's own way, not your code/);
    expect(sdkAdvice(undefined)).toMatch(/the server's SDK's own way/);
  });
});
