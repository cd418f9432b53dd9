import { REAL_CLIENT_FACTS } from '../../model/judgeObserved.ts';
import type { SdkFacts } from '../../sdk/facts.ts';

/**
 * How a test-bed client's call ended, as its side channel says it (testbeds/CLIENT.md,
 * `call-end`'s `outcome`) and as `clientTrace` words it in the trace: every SDK's own error types
 * are classified by the test bed, so one set of words serves them all.
 */
export const SETTLE_WORDS = {
  /** The SDK's timeout: its `code` and message. */
  timeoutCode: 'timeout',
  timeout: 'timed out',
  /** The caller's maximum total timeout (where the client has the option and the side channel or the timing says so). */
  maxTotal: 'maximum total timeout',
  aborted: 'aborted by the caller',
  closed: 'connection closed',
} as const;

/**
 * The facts of an SDK's test-bed client as the walker reads them: how `clientTrace` words a
 * call's end (`SETTLE_WORDS`), and no default timeout (CLIENT.md: a call without `timeoutMs` has
 * none, or the SDK's own made long). The rest is mcp-sim's own client's (`REAL_CLIENT_FACTS`):
 * the maps and timers are in the client's process, and a real run has no end-state probe.
 */
export const CLIENT_SIDE_CHANNEL_FACTS: SdkFacts = {
  ...REAL_CLIENT_FACTS,
  requestTimeoutCode: SETTLE_WORDS.timeoutCode,
  errorText: {
    requestTimeout: new RegExp(`^${SETTLE_WORDS.timeout}$`),
    maxTotalTimeout: new RegExp(`^${SETTLE_WORDS.maxTotal}$`),
    connectionGone: new RegExp(`^${SETTLE_WORDS.closed}$`),
  },
};
