/** The SDK seam: the only code that loads `@modelcontextprotocol/sdk` (or the 2.x client and server) or knows its API. */
export {
  aliasFor,
  defaultSdk,
  installCommand,
  installedSdk,
  loadSdk,
  loadSdkVersion,
  SDK_PACKAGE,
  SdkNotInstalledError,
  V2_CLIENT_PACKAGE,
  V2_SERVER_PACKAGE,
  type SdkLocation,
} from './load.ts';
export type * from './SdkAdapter.ts';
export { correlationMapRoles, transportMapRoles, type CorrelationMapRole, type SdkFacts, type TransportMapRole } from './facts.ts';
