/**
 * The official SDKs mcp-sim has a test bed for (testbeds/<language>/), and how a test bed is
 * reached. A light module: the front door reads it for every `check`, before any bed is opened.
 */
export const SDK_TESTBED_LANGUAGES = ['typescript', 'python', 'go', 'rust', 'java'] as const;
export type SdkTestbedLanguage = (typeof SDK_TESTBED_LANGUAGES)[number];

/** A Streamable HTTP mode of a test bed (PROGRAM.md, "Streamable HTTP"): session or not, SSE or one JSON body. */
export const HTTP_MODES = ['stateful-sse', 'stateful-json', 'stateless-sse', 'stateless-json'] as const;
export type HttpMode = (typeof HTTP_MODES)[number];
/** How the client reaches a test bed: its stdio, or one of its HTTP modes. */
export type SdkTestbedTransport = 'stdio' | `http-${HttpMode}`;
/** Every transport a test bed may offer. */
export const TESTBED_TRANSPORTS: readonly SdkTestbedTransport[] = ['stdio', ...HTTP_MODES.map((m) => `http-${m}` as const)];

/** How a test-bed client reaches mcp-sim's scripted server. */
export type ClientTransport = 'stdio' | 'http';
export const CLIENT_TRANSPORTS: readonly ClientTransport[] = ['stdio', 'http'];

/** `language`, or a one-line refusal naming the languages there are. */
export function languageOf(language: string, form: string): SdkTestbedLanguage {
  if ((SDK_TESTBED_LANGUAGES as readonly string[]).includes(language)) return language as SdkTestbedLanguage;
  throw new LanguageError(`mcp-sim check: ${form}: no test bed for ${JSON.stringify(language)}: one of ${SDK_TESTBED_LANGUAGES.join(', ')}.`);
}

/** An unknown language in a `testbed:` or `client:` target. */
export class LanguageError extends Error {
  override name = 'LanguageError';
}
