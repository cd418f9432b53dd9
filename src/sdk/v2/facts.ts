import type { SdkFacts } from '../facts.ts';
import { v1Facts } from '../v1/facts.ts';

/**
 * The facts of the 2.x line, checked against 2.4.0 (`Protocol` of `@modelcontextprotocol/client`
 * and of `@modelcontextprotocol/server`: the two bundled copies are the same code).
 *
 * - Defaults, error texts and the timer label are 1.x's: `DEFAULT_REQUEST_TIMEOUT_MSEC` is
 *   60 000; `Request timed out`, `Maximum total timeout exceeded`, `Connection closed`,
 *   `Not connected`; the timeout callback is still `const timeoutHandler`.
 * - The code differs: a timeout is an `SdkError` (a local error, never on the wire) whose code
 *   is the string `REQUEST_TIMEOUT` (`SdkErrorCode.RequestTimeout`), not `McpError` -32001.
 * - The private maps keep their 1.x names. `_requestResolvers` and `_taskProgressTokens` are
 *   gone (tasks left `Protocol`); the probe reports them missing and the leak check skips them.
 * - The Streamable HTTP server transport keeps `_requestToStreamMapping`, `_requestResponseMap`
 *   and `_streamMapping`.
 */
export const v2Facts: SdkFacts = {
  ...v1Facts,
  requestTimeoutCode: 'REQUEST_TIMEOUT',
};
