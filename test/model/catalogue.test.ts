import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invariants } from '../../src/model/index.ts';

/** Ids `judge()` does not judge: the campaign's determinism check and the sandbox's globals check. */
const notJudged = new Set(['harness.deterministic', 'harness.globals-restored']);

const root = new URL('../..', import.meta.url).pathname;

/** The titles of every `it('…')` in a test file, as the runner shows them (`\'` unescaped). */
function titlesIn(file: string): Set<string> {
  const source = readFileSync(join(root, file), 'utf8');
  return new Set([...source.matchAll(/\bit\('((?:[^'\\]|\\.)*)'/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1')));
}

/** One row of `docs/catalogue-audit.md`: an invariant's clause, the tests it cites, its status. */
interface AuditRow {
  readonly id: string;
  readonly clause: string;
  readonly refs: readonly { readonly file: string; readonly title: string }[];
  readonly status: string;
}

function auditRows(): AuditRow[] {
  const text = readFileSync(join(root, 'docs/catalogue-audit.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => /^\| `[a-z]+\.[a-z0-9-]+` \|/.test(line))
    .map((line) => {
      const cells = line.split(' | ');
      const id = /`([^`]+)`/.exec(cells[0]!)![1]!;
      const refs = [...cells[3]!.matchAll(/`([^`]+\.test\.ts)` › `([^`]+)`/g)].map((m) => ({ file: m[1]!, title: m[2]! }));
      return { id, clause: cells[1]!, refs, status: cells[4]!.replace(/ \|$/, '').trim() };
    });
}

/**
 * The clauses the audit leaves without a fires/silent pair (`MISSING` rows), by id and clause.
 * Pinned: a hole that opens or closes must change this list, not only the table.
 */
const missing = [
  "rpc.params-preserved: the caller's params (other than `_meta`) arrive unchanged",
  'cancel.not-initialize: also not on an aborted connect',
  'harness.globals-restored: after a run, timers, Date and random sources are the real ones again',
];

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

  describe('the clause audit (docs/catalogue-audit.md)', () => {
    const rows = auditRows();

    it('has rows for exactly the catalogue\'s ids', () => {
      expect([...new Set(rows.map((r) => r.id))].sort()).toEqual([...invariants.keys()].sort());
    });

    it('cites only tests that exist, under their exact titles', () => {
      const cache = new Map<string, Set<string>>();
      const unknown = rows.flatMap((r) =>
        r.refs
          .filter(({ file, title }) => {
            if (!existsSync(join(root, file))) return true;
            if (!cache.has(file)) cache.set(file, titlesIn(file));
            return !cache.get(file)!.has(title);
          })
          .map(({ file, title }) => `${r.id} (${r.clause}): ${file} › ${title}`),
      );
      expect(unknown).toEqual([]);
    });

    it('names a fires/silent test for every clause but the pinned MISSING ones', () => {
      const statuses = new Set(['pair', 'added', 'added+check', 'delegated']);
      const bad = rows.filter((r) => !r.status.startsWith('MISSING:') && (!statuses.has(r.status) || r.refs.length === 0));
      expect(bad.map((r) => `${r.id}: ${r.clause} [${r.status}]`)).toEqual([]);
      expect(rows.filter((r) => r.status.startsWith('MISSING:')).map((r) => `${r.id}: ${r.clause}`)).toEqual(missing);
    });

    it('cites, for a clause with its own pair, a test of that invariant (a title starting with its id)', () => {
      const own = rows.filter((r) => r.status === 'added' || r.status === 'added+check');
      const foreign = own.filter((r) => notJudged.has(r.id) === false && !r.refs.some((ref) => ref.title.startsWith(r.id)));
      expect(foreign.map((r) => `${r.id}: ${r.clause}`)).toEqual([]);
    });
  });
});
