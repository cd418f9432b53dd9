import type { SdkFacts } from '../facts.ts';
import { v1Facts } from '../v1/facts.ts';

/**
 * The facts of the 2.x packages, checked on 2.4.0: the bundled `Protocol` keeps the 1.x defaults
 * (60 s timeout), texts ("Request timed out", "Maximum total timeout exceeded", "Connection
 * closed"), timer callback name (`timeoutHandler`) and map names. Its timeout is an `SdkError`
 * with a string code; `ModernEra.errorCode` reports it as `requestTimeoutCode`.
 */
export const modernFacts: SdkFacts = v1Facts;
