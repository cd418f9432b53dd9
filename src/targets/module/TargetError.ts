/** Why a user's server cannot be fuzzed at all: each is one line for the user and exit 2. */
export type TargetErrorKind = 'module-not-found' | 'module-failed' | 'no-server' | 'factory-threw' | 'not-a-server' | 'foreign-sdk' | 'no-sdk' | 'no-tools';

/** A user's module or factory that gives no server to fuzz; the message says what was found and what to do. */
export class TargetError extends Error {
  override name = 'TargetError';
  constructor(
    readonly kind: TargetErrorKind,
    message: string,
  ) {
    super(message);
  }
}
