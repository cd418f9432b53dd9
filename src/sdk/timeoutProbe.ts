import { withGlobal, type Clock as FakeClock } from '@sinonjs/fake-timers';
import type { SdkCapabilities } from './SdkAdapter.ts';

/** What a release's `Protocol.request` does with progress. */
export type TimeoutBehaviour = Pick<SdkCapabilities, 'progressResetsTimeout'>;

/** A request timeout long enough that a probe step never reaches it by accident. */
const PROBE_TIMEOUT_MS = 100;

/**
 * `body` with fake `setTimeout`, `clearTimeout` and `Date` (fake-timers, started at 0), always
 * restored: the probe runs synchronously between install and uninstall, so no other code sees them.
 */
function withProbeClock<T>(body: (clock: FakeClock) => T): T {
  const clock = withGlobal(globalThis).install({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    return body(clock);
  } finally {
    clock.uninstall();
  }
}

/** The private entry points of a `Protocol` the probe drives (present in every 1.x and 2.x). */
interface ProbedProtocol {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
  request(request: unknown, schemaOrOptions: unknown, options?: Record<string, unknown>): Promise<unknown>;
  _onprogress(notification: unknown): void;
}

/** The release to probe: a fresh server `Protocol` of it, and the ping result schema 1.x requests need. */
export interface ProbeTarget {
  createServer(): unknown;
  readonly resultSchema?: unknown;
}

interface Frame {
  readonly id?: number;
  readonly method?: string;
  readonly params?: { readonly requestId?: number; readonly _meta?: { readonly progressToken?: number } };
}

/**
 * How the release times a request out, seen by behaviour, not by version: a `Server` sends
 * pings over a transport that records frames and never answers, while the probe clock stands
 * for time and progress is fed to `Protocol._onprogress`. Two requests with a 100 ms timeout:
 *
 * - no option, progress at 50 ms: still pending at 120 ms means progress reset the timeout
 *   although nobody asked (`always`, 1.6.1 to 1.8);
 * - `resetTimeoutOnProgress`, progress at 50 ms: pending at 120 ms means the option works
 *   (`when-asked`); cancelled on both means progress never moves a deadline (`never`).
 *
 * A description of the release for the report's limits, never what decides which options a
 * campaign uses: that is what the release declares (`declaredCallOptions`), so an option that is
 * there but broken stays in the campaign for the oracle to judge.
 *
 * Synchronous from the first request to the close, so the swapped globals are never seen by
 * anything else, and free of real time (well under a millisecond).
 */
export async function probeTimeoutBehaviour(release: ProbeTarget): Promise<TimeoutBehaviour> {
  const sent: Frame[] = [];
  const transport: { onclose?: () => void; start(): Promise<void>; send(m: Frame): Promise<void>; close(): Promise<void> } = {
    start: async () => {},
    send: async (m) => {
      sent.push(m);
    },
    close: async () => {
      transport.onclose?.();
    },
  };
  const server = release.createServer() as ProbedProtocol;
  await server.connect(transport);
  // 1.x takes a result schema before the options; 2.x takes the options alone.
  const request = (options: Record<string, unknown>) =>
    release.resultSchema === undefined ? server.request({ method: 'ping' }, options) : server.request({ method: 'ping' }, release.resultSchema, options);

  return withProbeClock((clock) => {
    /** Sends a ping at the clock's time with `options`; its id and how many progress reports reached it. */
    const ping = (options: Record<string, unknown>) => {
      const reached = { count: 0 };
      request({ timeout: PROBE_TIMEOUT_MS, onprogress: () => reached.count++, ...options }).catch(() => {});
      const frame = sent.at(-1)!;
      const start = clock.now;
      return {
        reached,
        progressAt(ms: number) {
          clock.tick(start + ms - clock.now);
          server._onprogress({ method: 'notifications/progress', params: { progressToken: frame.params?._meta?.progressToken, progress: reached.count + 1 } });
        },
        /** A cancellation for this ping went out by `ms` after its start (1.0.0 names it `cancelled`). */
        cancelledBy(ms: number) {
          clock.tick(start + ms - clock.now);
          return sent.some((m) => m.method?.endsWith('cancelled') === true && m.params?.requestId === frame.id);
        },
      };
    };

    const plain = ping({});
    plain.progressAt(50);
    const resetsUnasked = !plain.cancelledBy(120);
    const asked = ping({ resetTimeoutOnProgress: true });
    asked.progressAt(50);
    const resetsAsked = !asked.cancelledBy(120);
    void server.close().catch(() => {});
    return { progressResetsTimeout: resetsUnasked ? 'always' : resetsAsked ? 'when-asked' : 'never' };
  });
}
