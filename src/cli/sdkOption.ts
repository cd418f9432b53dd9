import { ENV_CACHE, ENV_SDK } from '../sdk/envNames.ts';

/** The help of `--sdk`, the same on every command that runs an SDK release. */
export const SDK_OPTION_HELP =
  `SDK release to run: an exact version (installed with npm into mcp-sim's cache, ${ENV_CACHE} moves it; needs the npm registry once), ` +
  `a folder holding @modelcontextprotocol/sdk or the 2.x pair @modelcontextprotocol/client + /server (a 2.x version installs that pair), or installed (default: the one installed next to mcp-sim, or ${ENV_SDK})`;
