import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invariants } from '../../src/model/index.ts';

/** Ids the oracle does not judge: the HTTP profile's, the runner's own, and routing (needs several clients). */
const notJudged = new Set(['harness.deterministic', 'harness.globals-restored']);

describe('catalogue', () => {
  it('every judged invariant id has a fires/silent fixture test in test/model', () => {
    const dir = new URL('.', import.meta.url).pathname;
    const titles = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    const missing = [...invariants.keys()]
      .filter((id) => !id.startsWith('http.') && !notJudged.has(id))
      .filter((id) => !new RegExp(`it\\('${id.replace(/\./g, '\\.')}: fires on .*/ silent on `).test(titles));
    expect(missing).toEqual([]);
  });
});
