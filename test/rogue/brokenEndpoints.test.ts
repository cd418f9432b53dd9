import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/model/judge.ts';
import { closeOnCancel, passThrough, rejectOnNotification, replyToNotifications } from '../../src/rogue/brokenWrappers.ts';
import { cancel, describeReaction, notification, progress, runRogue, type RogueRunOptions, type RogueRunResult } from '../../src/rogue/index.ts';
import { defaultSdk } from '../../src/sdk/load.ts';
import { otherSide } from '../../src/sim/scenario.ts';
import type { JsonValue } from '../../src/util/json.ts';

/** The model's findings on a rogue run: `judge()` told which side the rogue plays. */
const judged = async (run: RogueRunResult) => judge(run.trace, undefined, { facts: (await defaultSdk()).facts, rogue: otherSide(run.target) });
const ids = async (frames: JsonValue[], options: RogueRunOptions) => (await judged(await runRogue(frames, options))).map((f) => f.invariant);

const cases: { name: string; fixture: (t: Transport) => Transport; fires: string; frames: JsonValue[] }[] = [
  { name: 'a wrapper replying to notifications', fixture: replyToNotifications, fires: 'rpc.no-reply-to-notification', frames: [notification('notifications/rogue')] },
  { name: 'a wrapper closing the session on a cancel', fixture: closeOnCancel, fires: 'rpc.survives-bad-input', frames: [cancel(12345)] },
  { name: 'a wrapper leaking an unhandled rejection', fixture: rejectOnNotification, fires: 'harness.unhandled', frames: [notification('notifications/rogue')] },
];

describe('the model on a rogue run: its rules fire on a broken endpoint and stay quiet on the correct one', () => {
  for (const target of ['server', 'client'] as const) {
    const extra: RogueRunOptions = target === 'client' ? { target, pendingCall: true } : { target };
    for (const c of cases) {
      it(`should report ${c.fires} for ${c.name} (${target})`, async () => {
        expect(await ids(c.frames, { ...extra, wrap: c.fixture })).toContain(c.fires);
      });
      it(`should report nothing for the same frames through a pass-through wrapper (${c.fires}, ${target})`, async () => {
        expect(await ids(c.frames, { ...extra, wrap: passThrough })).toEqual([]);
      });
    }
  }

  it('should say why the session is unusable when the ping after the frames cannot reach it', async () => {
    const run = await runRogue([cancel(1)], { wrap: closeOnCancel });
    expect(describeReaction(run.trace.slice(run.attack.start, run.attack.end), 'server').reaction).toBe('closed');
    const unusable = (await judged(run)).filter((f) => f.invariant === 'rpc.survives-bad-input');
    expect(unusable.map((f) => f.message)).toEqual([expect.stringMatching(/^the server was gone \(Not connected\), so the ping \(id "rogue-follow-up"\) the client sent on connection 1 never reached it/)]);
  });

  it('should point harness.unhandled at the step that caused it', async () => {
    const run = await runRogue([notification('notifications/rogue')], { wrap: rejectOnNotification });
    const f = (await judged(run)).find((x) => x.invariant === 'harness.unhandled')!;
    const escape = run.trace[f.at]!;
    expect(escape.kind).toBe('escape');
    // The wrapper also trips on the handshake's notifications/initialized: the first escape is there.
    const cause = run.trace.find((e) => e.step === escape.step && e.kind === 'deliver');
    expect(cause?.kind === 'deliver' && cause.frame).toMatchObject({ method: 'notifications/initialized' });
    const inAttack = run.trace.slice(run.attack.start, run.attack.end).filter((e) => e.kind === 'escape');
    expect(inAttack).toHaveLength(1);
  });

  it('should flag a late progress error callback as progress.race-silent and a clean one not at all', async () => {
    const late = await ids([{ jsonrpc: '2.0', id: 1, result: { content: [] } }, progress(1, 1)], { target: 'client', pendingCall: true });
    expect(late).toContain('progress.race-silent');
    const onTime = await ids([progress(1, 1)], { target: 'client', pendingCall: true });
    expect(onTime).toEqual([]);
  });
});
