import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import { closeOnCancel, passThrough, rejectOnNotification, replyToNotifications } from '../../src/rogue/brokenWrappers.ts';
import { cancel, judgeRogue, notification, progress, runRogue, type RogueRunOptions } from '../../src/rogue/index.ts';
import type { JsonValue } from '../../src/util/json.ts';

const ids = async (frames: JsonValue[], options: RogueRunOptions) => judgeRogue(await runRogue(frames, options)).findings.map((f) => f.invariant);

const cases: { name: string; fixture: (t: Transport) => Transport; fires: string; frames: JsonValue[] }[] = [
  { name: 'a wrapper replying to notifications', fixture: replyToNotifications, fires: 'rpc.no-reply-to-notification', frames: [notification('notifications/rogue')] },
  { name: 'a wrapper closing the session on a cancel', fixture: closeOnCancel, fires: 'cancel.race-graceful', frames: [cancel(12345)] },
  { name: 'a wrapper leaking an unhandled rejection', fixture: rejectOnNotification, fires: 'harness.unhandled', frames: [notification('notifications/rogue')] },
];

describe('judgeRogue: every check fires on a broken endpoint and stays quiet on the correct one', () => {
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

  it('should say why the session is unusable when the follow-up fails', async () => {
    const verdict = judgeRogue(await runRogue([cancel(1)], { wrap: closeOnCancel }));
    expect(verdict.reaction).toBe('closed');
    expect(verdict.findings.map((f) => f.message).join('\n')).toMatch(/never answered the follow-up/);
  });

  it('should point harness.unhandled at the step that caused it', async () => {
    const run = await runRogue([notification('notifications/rogue')], { wrap: rejectOnNotification });
    const f = judgeRogue(run).findings.find((x) => x.invariant === 'harness.unhandled')!;
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
