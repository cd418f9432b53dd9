/** The text of a thrown value: an `Error`'s message, or the value itself as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A thrown value as `Name: message` (escapes and rogue logs keep the error's class). */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
