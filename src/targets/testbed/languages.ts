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

/**
 * The two interpreters of a test bed (testbeds/PROGRAM.md, "Layers"): `low` on the SDK's
 * low-level request handlers (the request context as the SDK hands it over), `high` on the API
 * most servers are written with (FastMCP/`MCPServer` with `Context`, go-sdk's typed `mcp.AddTool`,
 * rmcp's `#[tool]` router, Java's McpServer tool specifications (its one layer), TypeScript's `McpServer.registerTool`),
 * where the SDK adds its own routing of progress, errors and cancellation between the wire and
 * the handler. The same program and side channel on both, so the one oracle judges both.
 */
export const TESTBED_LAYERS = ['low', 'high'] as const;
export type TestbedLayer = (typeof TESTBED_LAYERS)[number];
/** What `--layer` takes: one layer, or both (the default: each case on one of them, in turn). */
export const LAYER_CHOICES = [...TESTBED_LAYERS, 'both'] as const;

export type LayerChoice = (typeof LAYER_CHOICES)[number];

/** `word` as a `--layer` choice, or undefined when it is none. */
export const layerChoiceOf = (word: string): LayerChoice | undefined => ((LAYER_CHOICES as readonly string[]).includes(word) ? (word as LayerChoice) : undefined);

/**
 * A cause's variant on a test bed: where its case ran, the transport and the layer, so the same
 * invariant on the two layers is two causes (`stdio (high layer)`).
 */
export const layerVariant = (transport: string, layer: TestbedLayer): string => `${transport} (${layer} layer)`;

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
