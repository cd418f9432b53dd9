import { describe, expect, it } from 'vitest';
import { judgeObserved } from '../../src/model/judgeObserved.ts';
import { BoundedLines } from '../../src/real/boundedFrames.ts';
import { FrameBudget } from '../../src/real/FrameBudget.ts';
import type { WireBounds } from '../../src/real/wireBounds.ts';
import { TraceRecorder } from '../../src/sim/trace.ts';
import type { JsonValue } from '../../src/util/json.ts';

/**
 * The wire bounds' findings (`src/model/rules/wireBounds.ts`) on traces the real readers record:
 * bytes fed to `BoundedLines` and frames to `FrameBudget` as a stdio connection does, on a clock
 * the test moves, then judged as a black-box run.
 */
const clock = { kind: 'real' as const, inFlightMs: 150, hangAfterMs: 3_000, graceMs: 500 };
const bounds: WireBounds = { maxFrameBytes: 4_096, maxNotifications: 500, maxNotificationRate: 400 };

/** A connection's reading: what `feed` and `frame` record, judged. */
function reader() {
  let t = 0;
  const recorder = new TraceRecorder(() => t);
  const budget = new FrameBudget(bounds, recorder, 'client', 0, () => t);
  let seq = 0;
  const lines: string[] = [];
  const deliver = (frame: JsonValue) => {
    if (budget.admit(frame)) recorder.record({ kind: 'deliver', to: 'client', conn: 0, seq: seq++, frame, burst: 1 });
  };
  const stdout = new BoundedLines(bounds.maxFrameBytes, recorder, (line) => {
    lines.push(line);
    if (!budget.countsLine(line)) deliver(JSON.parse(line) as JsonValue);
  });
  return {
    recorder,
    lines,
    at: (ms: number) => void (t = ms),
    frame: deliver,
    feed: (text: string) => stdout.push(Buffer.from(text)),
    ids: () => {
      recorder.record({ kind: 'end', outcome: 'quiescent' });
      return judgeObserved(recorder.events, { clock }).findings.map((f) => f.invariant);
    },
  };
}

const progress = (token: JsonValue, n: number): JsonValue => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n } });
const log = (n: number): JsonValue => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `line ${n}` } });

describe('wire bounds (black box)', () => {
  it('rpc.frame-size: fires on a stdio line past --max-frame-bytes / silent on one at the bound', () => {
    const big = reader();
    // 64 KiB of one line in 1 KiB chunks, no newline yet: never more than the bound held.
    big.feed('{"jsonrpc":"2.0","id":1,"result":{"text":"');
    for (let k = 0; k < 64; k++) big.feed('x'.repeat(1_024));
    big.feed('"}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n');
    expect(big.ids()).toContain('rpc.frame-size');
    const cut = big.recorder.events.find((e) => e.kind === 'frame-too-large');
    expect(cut).toMatchObject({ whole: true, bound: 4_096 });
    expect(cut!.kind === 'frame-too-large' && cut!.bytes).toBeGreaterThan(64 * 1_024);
    // The line after the one cut is read as usual.
    expect(big.lines).toEqual(['{"jsonrpc":"2.0","id":2,"result":{}}']);

    const fits = reader();
    const frame = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: '' } });
    fits.feed(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(4_096 - frame.length) } })}\n`);
    expect(fits.lines).toHaveLength(1);
    expect(fits.lines[0]).toHaveLength(4_096);
    expect(fits.ids()).not.toContain('rpc.frame-size');
  });

  it('progress.rate-limited: fires on 2,000 progress of one call at once / silent on 400 in 1.6 s', () => {
    const flood = reader();
    for (let n = 1; n <= 2_000; n++) flood.frame(progress('t1', n));
    expect(flood.ids()).toContain('progress.rate-limited');
    // Counted in one event, not recorded one by one.
    // A tenth of a second of the rate at once, then counted.
    expect(flood.recorder.events.filter((e) => e.kind === 'deliver')).toHaveLength(bounds.maxNotificationRate / 10);
    expect(flood.recorder.events.filter((e) => e.kind === 'frames-counted')).toMatchObject([{ count: 2_000 - bounds.maxNotificationRate / 10, past: 'rate', token: 't1' }]);
    // Read as lines, as stdio does: the frames past the bound are counted from their text, unparsed.
    const lines = reader();
    for (let n = 1; n <= 2_000; n++) lines.feed(`${JSON.stringify(progress('t1', n))}\n`);
    lines.feed(`${JSON.stringify(progress('t2', 1))}\n${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { progressToken: 't1', method: 'notifications/progress' } })}\n`);
    expect(lines.recorder.events.filter((e) => e.kind === 'frames-counted')).toMatchObject([{ count: 2_000 - bounds.maxNotificationRate / 10, token: 't1' }]);
    // Another call's progress and an answer that merely mentions the counted ones are frames as usual.
    expect(lines.recorder.events.filter((e) => e.kind === 'deliver').slice(-2).map((e) => e.kind === 'deliver' && e.frame)).toEqual([progress('t2', 1), { jsonrpc: '2.0', id: 1, result: { progressToken: 't1', method: 'notifications/progress' } }]);
    expect(lines.ids()).toContain('progress.rate-limited');

    // Steady within the rate: 400 in 1.6 s (the bucket refills 400 a second).
    const steady = reader();
    for (let n = 1; n <= 400; n++) {
      steady.at(n * 4);
      steady.frame(progress('t1', n));
    }
    expect(steady.ids()).not.toContain('progress.rate-limited');
  });

  it('rpc.rate-limited: fires on log notifications past --max-notifications / silent on as many progress of different calls', () => {
    const logs = reader();
    // Slow enough for the rate, too many in all.
    for (let n = 1; n <= 600; n++) {
      logs.at(n * 5);
      logs.frame(log(n));
    }
    expect(logs.ids()).toEqual(expect.arrayContaining(['rpc.rate-limited']));
    expect(logs.recorder.events.filter((e) => e.kind === 'frames-counted')).toMatchObject([{ past: 'count', method: 'notifications/message', count: 100 }]);

    const calls = reader();
    for (let n = 1; n <= 600; n++) {
      calls.at(n * 5);
      calls.frame(progress(`t${n}`, 1));
    }
    const ids = calls.ids();
    expect(ids).not.toContain('rpc.rate-limited');
    expect(ids).not.toContain('progress.rate-limited');
  });

  it("rpc.rate-limited: a method's count is per minute: silent on 1,500 log lines at 5 a second over five minutes (a server that logs once per call on a campaign-long connection) / fires on 600 within one", () => {
    const steady = reader();
    for (let n = 1; n <= 1_500; n++) {
      steady.at(n * 200);
      steady.frame(log(n));
    }
    expect(steady.ids()).not.toContain('rpc.rate-limited');
    expect(steady.recorder.events.filter((e) => e.kind === 'deliver')).toHaveLength(1_500);

    const burst = reader();
    for (let n = 1; n <= 900; n++) {
      // A minute at 5 a second, then 600 within the next half minute.
      burst.at(n <= 300 ? n * 200 : 60_000 + (n - 300) * 50);
      burst.frame(log(n));
    }
    expect(burst.ids()).toContain('rpc.rate-limited');
  });
});
