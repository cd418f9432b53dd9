import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invariants } from '../../src/model/index.ts';

/**
 * Ids `judge()` does not judge: the campaign's determinism check, the sandbox's globals check,
 * and the HTTP input check of the rogue HTTP client (`src/rogue/http`).
 */
const notJudged = new Set(['harness.deterministic', 'harness.globals-restored', 'http.rejects-bad-input']);

describe('catalogue', () => {
  it('every judged invariant id has a fires/silent fixture test in test/model', () => {
    const dir = new URL('.', import.meta.url).pathname;
    const titles = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    const missing = [...invariants.keys()]
      .filter((id) => !notJudged.has(id))
      .filter((id) => !new RegExp(`it\\('${id.replace(/\./g, '\\.')}: fires on .*/ silent on `).test(titles));
    expect(missing).toEqual([]);
  });
});
