/** What is under test when it is not a module: a server process (stdio) or a URL (Streamable HTTP). */
export { type Target, type TargetConnection, type TargetVisibility, BadTargetError } from './Target.ts';
export { Inbox } from './Inbox.ts';
export { processTarget, commandLabel, type CommandSpec, type ProcessTargetOptions } from './processTarget.ts';
export { urlTarget, checkUrl, type UrlSpec, type UrlTargetOptions } from './urlTarget.ts';
export { handshake, KNOWN_PROTOCOL_VERSIONS, REQUESTED_PROTOCOL_VERSION, type ServerHello } from './handshake.ts';
export { ownedPids, reaperPid } from './processRegistry.ts';
export { freePort } from './freePort.ts';
