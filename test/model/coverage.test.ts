import { describe, expect, it } from 'vitest';
import { coverage, mergeCoverage, racePairs } from '../../src/model/index.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import { runScenario } from '../../src/sim/runScenario.ts';
import { abort, call, close, fault, handler, plain, progress, reconnect, scenario, sleep } from './fixtures.ts';

const traceOf = async (...args: Parameters<typeof runScenario>) => (await runScenario(...args)).trace;

describe('coverage', () => {
  it('coverage: counts model transitions of a plain run and no race', async () => {
    const cov = coverage([await traceOf(plain())], v1Facts);
    expect(cov.transitions['requester: wire.pending|caller.waiting -RESPONSE-> wire.responded|caller.waiting']).toBe(2);
    expect(cov.transitions['session: connecting -READY-> open']).toBe(1);
    expect(Object.values(cov.races).every((n) => n === 0)).toBe(true);
    expect(Object.keys(cov.races).sort()).toEqual([...racePairs].sort());
  });

  it('coverage: hits every named race pair over a handful of fixtures', async () => {
    const traces = [
      // response-after-cancel
      await traceOf(scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' }), abort('a')]), { tape: [0, 0, 0, 0, 1, 0, 1, 0] }),
      // progress-racing-timeout
      await traceOf(scenario({ h: handler([sleep(100), progress(1)]) }, [call('c1', 'h', { onprogress: true, timeoutMs: 100 })]), { tape: [0, 0, 0, 0, 0, 0, 0, 1, 1, 1] }),
      // shared-signal-abort-after-settle
      await traceOf(scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' }), abort('a')])),
      // cancel-before-delivery: abort before the request is delivered
      await traceOf(scenario({ h: handler([], 'hang') }, [call('c1', 'h', { signal: 'a' }), abort('a')]), { tape: [0, 0, 0, 0, 1] }),
      // close-with-in-flight, reconnect-with-pending-timer (a handler sleeping past the close)
      await traceOf(scenario({ h: handler([sleep(1000)], 'result', 'ignore') }, [call('c1', 'h'), close('client'), reconnect])),
      // progress-after-response: only a peer that breaks progress.after-response produces it on a FIFO link
      await traceOf(scenario({ h: handler() }, [call('c1', 'h', { onprogress: true })], [fault('server', 'progress-after-response')])),
      // progress-at-max-total: progress at 120 ms against a maximum of 110 ms
      await traceOf(
        scenario({ h: handler([sleep(60), progress(1), sleep(60), progress(2)]) }, [
          call('c1', 'h', { timeoutMs: 100, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 110, onprogress: true }),
        ]),
      ),
      // response-after-first-deadline: progress at 80 ms moves the 100 ms deadline; the result comes at 160 ms
      await traceOf(scenario({ h: handler([sleep(80), progress(1), sleep(80)]) }, [call('c1', 'h', { timeoutMs: 100, resetTimeoutOnProgress: true, onprogress: true })])),
      // restart-with-running-handler: a fresh client connects while the old connection's handler sleeps on
      await traceOf(scenario({ h: handler([sleep(1000)], 'result', 'ignore') }, [call('c1', 'h'), close('client'), { kind: 'reconnect', fresh: true }])),
      // cancel-after-response: deliver the result only after the cancel crossed it
      await traceOf(scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' }), abort('a')]), { tape: [0, 0, 0, 0, 1, 0, 1, 0] }),
    ];
    const cov = traces.map((t) => coverage([t], v1Facts)).reduce(mergeCoverage);
    expect(cov).toEqual(coverage(traces, v1Facts));
    const missing = racePairs.filter((r) => cov.races[r] === 0);
    expect(missing).toEqual([]);
  });
});
