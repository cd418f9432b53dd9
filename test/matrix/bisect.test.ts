import { describe, expect, it } from 'vitest';
import { bisectReleases, isTarget, type Probe } from '../../src/matrix/bisect.ts';
import type { CauseFound } from '../../src/matrix/causeMatrix.ts';

/** A stand-in probe: the releases from `firstBad` on show the finding (before it, with `fixed`), those in `cannot` cannot be driven. */
function fakeProbe(releases: readonly string[], firstBad: number, cannot: ReadonlySet<string> = new Set(), fixed = false) {
  const asked: string[] = [];
  const probe = async (release: string): Promise<Probe> => {
    asked.push(release);
    if (cannot.has(release)) return { release, verdict: 'cannot', column: { status: 'cannot', choice: release, reason: 'no adapter' } };
    const column = { status: 'ran', choice: release, runs: 10, causes: [] } as unknown as Probe['column'];
    return (releases.indexOf(release) >= firstBad) !== fixed
      ? { release, verdict: 'bad', column, cause: { runs: 3 } as CauseFound }
      : { release, verdict: 'good', column };
  };
  return { probe, asked };
}

const releases = Array.from({ length: 17 }, (_, i) => `1.${i}.0`);

describe('bisectReleases: binary search between a good and a bad release', () => {
  it('finds the first bad release in about log2(n) probes, with the last good one before it', async () => {
    for (const firstBad of [1, 5, 8, 16]) {
      const { probe, asked } = fakeProbe(releases, firstBad);
      const outcome = await bisectReleases(releases, probe);
      expect(outcome).toMatchObject({ kind: 'found', first: { release: releases[firstBad] }, before: { release: releases[firstBad - 1] }, skipped: [] });
      expect(asked.length).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(releases.length)));
    }
  });

  it('steps over releases it cannot drive, and names those left between the answer and the release before', async () => {
    const { probe } = fakeProbe(releases, 9, new Set(['1.8.0', '1.7.0']));
    const outcome = await bisectReleases(releases, probe);
    expect(outcome).toMatchObject({ kind: 'found', first: { release: '1.9.0' }, before: { release: '1.6.0' }, skipped: ['1.7.0', '1.8.0'] });
  });

  it('finds where a finding disappears (a fix): the first release without it, the last one with it before', async () => {
    const { probe } = fakeProbe(releases, 11, new Set(), true);
    const outcome = await bisectReleases(releases, probe, { appears: false });
    expect(outcome).toMatchObject({ kind: 'found', first: { release: '1.11.0', verdict: 'good' }, before: { release: '1.10.0', verdict: 'bad' } });
  });

  it('stops when the good release already shows the finding, the bad one does not, or an end cannot be driven', async () => {
    expect((await bisectReleases(releases, fakeProbe(releases, 0).probe)).kind).toBe('good-is-bad');
    expect((await bisectReleases(releases, fakeProbe(releases, 99).probe)).kind).toBe('bad-is-good');
    expect((await bisectReleases(releases, fakeProbe(releases, 4, new Set(['1.16.0'])).probe)).kind).toBe('cannot-drive');
  });
});

describe('isTarget: which cause a bisect searches for', () => {
  const cause = { invariant: 'timeout.max-total', clause: 'settles-late', variant: 'memory', shape: 'max-total+sleep' } as const;
  it('matches by invariant, by invariant/clause, and by "<variant> <shape>" when a cause is given', () => {
    expect(isTarget({ invariant: 'timeout.max-total' }, cause)).toBe(true);
    expect(isTarget({ invariant: 'timeout.max-total/settles-late' }, cause)).toBe(true);
    expect(isTarget({ invariant: 'timeout.max-total/other' }, cause)).toBe(false);
    expect(isTarget({ invariant: 'timeout.max-total', cause: 'memory  max-total+sleep' }, cause)).toBe(true);
    expect(isTarget({ invariant: 'timeout.max-total', cause: 'memory max-total' }, cause)).toBe(false);
    expect(isTarget({ invariant: 'timeout.settles' }, cause)).toBe(false);
  });
});
