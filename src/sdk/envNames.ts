// The environment variables of the SDK loader, apart from it: `--help` names them without loading it.

/**
 * The environment variable that puts another copy of the SDK in the installed one's place: a
 * folder holding the SDK package, or a project folder with `node_modules/@modelcontextprotocol/sdk`,
 * or a folder holding the 2.x pair (`releaseInFolder`; a relative path is taken from the working
 * directory). Every default load (`defaultSdk()`, `loadSdk()`, `installedSdk()`) then uses that copy, so the CLI, the property suite and the
 * benchmarks run against it unchanged, and its baseline is the one of its own name@version: a
 * patched 1.32.2 (a mutant, a local fix) is judged against the 1.32.2 baseline.
 */
export const ENV_SDK = 'MCP_SIM_SDK';

/** The environment variable that moves the cache of installed releases. */
export const ENV_CACHE = 'MCP_SIM_CACHE';
