import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createRealProgress, PLAIN_LINE_EVERY_MS, progressSettings, realProgressLine } from '../../src/cli/progress.ts';

/** A stream that keeps what was written, and a clock the test moves. */
function io(tty: boolean) {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  let t = 0;
  return { io: { stream, tty, now: () => t }, advance: (ms: number) => (t += ms), text: () => text };
}

afterEach(() => {
  progressSettings.quiet = false;
});

describe('the progress of a real-time campaign', () => {
  it('in words: runs done, what they broke so far, the time left at their pace; then the findings shrunk and re-run', () => {
    expect(realProgressLine({ phase: 'run', done: 10, total: 40, found: 2 }, 5_000, 6_000)).toBe('runs 10/40, 2 invariant(s) broken so far, ~15 s left (6 s in)');
    expect(realProgressLine({ phase: 'run', done: 40, total: 40 }, 20_000, 21_000)).toBe('runs 40/40 (21 s in)');
    expect(realProgressLine({ phase: 'shrink', done: 1, total: 3 }, 60_000, 300_000)).toBe('findings 1/3 worked out (shrinking), ~2 min left (5 min in)');
    expect(realProgressLine({ phase: 'rate', done: 0, total: 3 }, 1_000, 2_000)).toBe('findings 0/3 worked out (rate re-runs) (2 s in)');
    expect(realProgressLine({ phase: 'shrink', done: 3, total: 3 }, 9_000, 12_000)).toBe('findings 3/3 worked out (12 s in)');
  });

  it('in a log (no terminal): at most one plain line a minute, none for a run shorter than that', () => {
    const { io: out, advance, text } = io(false);
    const progress = createRealProgress(out);
    for (let k = 1; k <= 30; k++) {
      advance(1_000);
      progress.update({ phase: 'run', done: k, total: 100, found: 0 });
    }
    expect(text()).toBe('');
    for (let k = 31; k <= 100; k++) {
      advance(1_000);
      progress.update({ phase: 'run', done: k, total: 100, found: 1 });
    }
    advance(50_000);
    progress.update({ phase: 'shrink', done: 0, total: 1 });
    advance(20_000);
    progress.update({ phase: 'rate', done: 0, total: 1 });
    // 60 s in, a line; the next not before a minute later (150 s: shrinking); 170 s, none.
    expect(text().trimEnd().split('\n')).toEqual(['runs 60/100, 1 invariant(s) broken so far, ~40 s left (60 s in)', 'findings 0/1 worked out (shrinking) (3 min in)']);
  });

  it('on a terminal: a bar with the same words; nothing at all under --quiet', () => {
    const tty = io(true);
    const bar = createRealProgress(tty.io);
    tty.advance(1_000);
    bar.update({ phase: 'run', done: 2, total: 4, found: 1 });
    bar.stop();
    expect(tty.text()).toContain('runs 2/4, 1 invariant(s) broken so far');
    progressSettings.quiet = true;
    const quiet = io(false);
    const silent = createRealProgress(quiet.io);
    quiet.advance(10 * PLAIN_LINE_EVERY_MS);
    silent.update({ phase: 'run', done: 1, total: 1 });
    expect(quiet.text()).toBe('');
  });
});
