import { describe, expect, it } from 'vitest';
import { globalsRestored } from '../../src/sim/realGlobals.ts';
import { cancel, echoCall, hangCall, notification, progress, result, runRogue } from '../../src/rogue/index.ts';

describe('runRogue: determinism (same frames, same trace hash)', () => {
  const frames = [echoCall(1), cancel(1), notification('notifications/rogue'), 42, [], hangCall(5), cancel(5)];

  it('should give the same hash for the same frames twice (server target, raw and stdio)', async () => {
    for (const framing of ['raw', 'stdio'] as const) {
      const a = await runRogue(frames, { framing });
      const b = await runRogue(frames, { framing });
      expect(a.hash).toBe(b.hash);
      expect(a.trace).toEqual(b.trace);
    }
  });

  it('should give the same hash for the same frames twice (client target)', async () => {
    const clientFrames = [progress(1, 1), progress('1', 2), result('1')];
    const a = await runRogue(clientFrames, { target: 'client', pendingCall: true });
    const b = await runRogue(clientFrames, { target: 'client', pendingCall: true });
    expect(a.hash).toBe(b.hash);
  });

  it('should give a different hash for different frames', async () => {
    const a = await runRogue([cancel(1)]);
    const b = await runRogue([cancel(2)]);
    expect(a.hash).not.toBe(b.hash);
  });

  it('should give back every global it replaced, also after a client run', async () => {
    await runRogue([42], { target: 'client', pendingCall: true, framing: 'stdio' });
    expect(globalsRestored()).toEqual([]);
  });
});

describe('runRogue: the run itself', () => {
  it('should handshake, deliver each frame on its own step, ping and close (server)', async () => {
    const run = await runRogue([echoCall(7), notification('notifications/rogue')]);
    expect(run.trace.find((e) => e.kind === 'ready')).not.toHaveProperty('error');
    const attackDeliveries = run.trace.slice(run.attack.start, run.attack.end).filter((e) => e.kind === 'deliver' && e.to === 'server');
    expect(attackDeliveries).toHaveLength(2);
    expect(new Set(attackDeliveries.map((e) => e.step)).size).toBe(2);
    const after = run.trace.slice(run.attack.end);
    expect(after.some((e) => e.kind === 'send' && e.from === 'server' && JSON.stringify(e.frame).includes('"id":"rogue-follow-up"'))).toBe(true);
    expect(after.filter((e) => e.kind === 'close').map((e) => e.kind === 'close' && e.side)).toEqual(['client', 'server']);
    expect(run.trace.at(-1)?.kind).toBe('end');
  });

  it('should hold the pending call through the attack and answer it afterwards (client)', async () => {
    const run = await runRogue([progress(1, 1)], { target: 'client', pendingCall: true });
    const settles = run.trace.filter((e) => e.kind === 'call-settle');
    expect(settles.map((e) => e.kind === 'call-settle' && [e.call, e.outcome])).toEqual([['pending', 'resolved']]);
    expect(run.trace.some((e) => e.kind === 'onprogress' && e.progress === 1)).toBe(true);
  });

  it('should reject options that clash, naming the option', async () => {
    await expect(runRogue([], { target: 'server', pendingCall: true })).rejects.toThrow(/pendingCall/);
    await expect(runRogue([], { target: 'client', abortPendingCall: true })).rejects.toThrow(/abortPendingCall/);
    await expect(runRogue([], { framing: 'tcp' as never })).rejects.toThrow(/framing/);
  });
});
