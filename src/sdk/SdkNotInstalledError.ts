/** Thrown when the release asked for is not where it was looked for (or the folder is ambiguous); the message says what to do. */
export class SdkNotInstalledError extends Error {
  override name = 'SdkNotInstalledError';
}
