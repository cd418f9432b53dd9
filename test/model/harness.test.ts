import { describe, expect, it } from 'vitest';
import { loadSdk } from '../../src/sdk/load.ts';
import { call, check, fault, handler, plain, progress, scenario, sleep } from './fixtures.ts';

/** 1.0.0, the oldest release: no maximum total timeout, no reset on progress, no elicitation (read in its dist/shared/protocol.js and types.js). */
const oldest = () => loadSdk({ kind: 'package', name: 'sdk-1.0.0' });

describe('harness and liveness invariants', () => {
  it('harness.unhandled: fires on an unhandled rejection in a handler / silent on a plain run', async () => {
    const bad = await check(scenario({ h: handler([], 'result', 'honour', { unhandledRejection: true }) }, [call('c1', 'h')]));
    expect(bad.ids).toContain('harness.unhandled');
    expect((await check(plain())).ids).not.toContain('harness.unhandled');
  });

  it('harness.unhandled (exception): fires on an exception thrown from a handler\'s timer / silent on a plain run', async () => {
    const bad = await check(scenario({ h: handler([], 'result', 'honour', { throwInTimer: true }) }, [call('c1', 'h')]));
    expect(bad.ids).toContain('harness.unhandled');
    expect((await check(plain())).ids).not.toContain('harness.unhandled');
  });

  it('harness.as-scripted: fires on a call option the release lacks / silent on the same call on a release that has it', async () => {
    const s = scenario({ h: handler([progress(1), sleep(50)]) }, [call('c1', 'h', { maxTotalTimeoutMs: 20, resetTimeoutOnProgress: true, onprogress: true })]);
    const bad = await check(s, { sdk: await oldest() });
    const messages = bad.run.findings.filter((f) => f.invariant === 'harness.as-scripted').map((f) => f.message);
    expect(messages).toEqual([
      expect.stringMatching(/call c1 \(client\) as scripted: @modelcontextprotocol\/sdk@1\.0\.0 has no option resetTimeoutOnProgress/),
      expect.stringMatching(/call c1 \(client\) as scripted: @modelcontextprotocol\/sdk@1\.0\.0 has no option maxTotalTimeout/),
    ]);
    // The trace names the options the call really ran with, so the oracle judges what ran.
    expect(bad.run.result.trace.find((e) => e.kind === 'call-start')).toMatchObject({ options: { onprogress: true } });
    expect((await check(s)).ids).not.toContain('harness.as-scripted');
  });

  it('harness.as-scripted (method): fires on a request of a method the release lacks / silent on one it has', async () => {
    const sdk = await oldest();
    const bad = await check(scenario({ h: handler() }, [call('s1', 'h', {}, 'elicitation/create')]), { sdk });
    expect(bad.run.findings.find((f) => f.invariant === 'harness.as-scripted')?.message).toMatch(/call s1 \(server\) as scripted: .* has no elicitation\/create: the call was not made/);
    expect((await check(scenario({ h: handler() }, [call('s1', 'h', {}, 'sampling/createMessage')]), { sdk })).ids).not.toContain('harness.as-scripted');
  });

  it('harness.as-scripted (routing): fires on a request whose id the adapter cannot read / silent on the adapter that reads it', async () => {
    const sdk = await oldest();
    const s = scenario({ h: handler([progress(1)]) }, [call('c1', 'h', { onprogress: true })]);
    // Faulty adapters: one cannot read the id the next request gets, one hands handlers no id.
    const blindProbe = { ...sdk, probe: { ...sdk.probe, nextRequestId: () => ({ value: undefined, missing: 'no counter' }) } };
    const noIdInContext: typeof sdk = { ...sdk, handle: (endpoint, method, h) => sdk.handle(endpoint, method, (request, context) => h(request, { ...context, requestId: undefined as never })) };
    expect((await check(s, { sdk: blindProbe })).run.findings.find((f) => f.invariant === 'harness.as-scripted')?.message).toMatch(/handler h is never found/);
    expect((await check(s, { sdk: noIdInContext })).run.findings.find((f) => f.invariant === 'harness.as-scripted')?.message).toMatch(/given no request id/);
    const routed = await check(s, { sdk });
    expect(routed.ids).not.toContain('harness.as-scripted');
    // Routed by the raw request's id on 1.0.0: the scripted progress step really ran.
    expect(routed.run.result.trace.some((e) => e.kind === 'handler-step')).toBe(true);
  });

  it('liveness.quiescent (step budget): fires on a run that ends on its step budget / silent on the same run with steps to spare', async () => {
    const bad = await check(plain(), { maxSteps: 3 });
    expect(bad.run.findings.find((f) => f.invariant === 'liveness.quiescent')?.message).toMatch(/step/);
    expect((await check(plain(), { maxSteps: 1000 })).ids).not.toContain('liveness.quiescent');
  });

  it('liveness.quiescent: fires on a run that ends on its time budget / silent on a quiescent run', async () => {
    const bad = await check(scenario({ h: handler([], 'hang') }, [call('c1', 'h', { timeoutMs: 10_000 })]), { maxVirtualMs: 1000 });
    expect(bad.ids).toContain('liveness.quiescent');
    expect(bad.ids).not.toContain('timeout.settles'); // still within its bound when the run stopped
    expect((await check(plain())).ids).not.toContain('liveness.quiescent');
  });

  it('liveness.handler-ends: fires on a handler that hangs forever / silent on a hang the cancel aborts', async () => {
    const s = (faults?: Parameters<typeof scenario>[2]) => scenario({ h: handler([], 'hang') }, [call('c1', 'h', { timeoutMs: 100 })], faults);
    expect((await check(s([fault('client', 'drop-outgoing-cancel')]))).ids).toContain('liveness.handler-ends');
    expect((await check(s())).ids).not.toContain('liveness.handler-ends');
  });

  it('a plain call and a plain progress call raise no finding at all', async () => {
    expect((await check(plain())).run.findings).toEqual([]);
  });
});
