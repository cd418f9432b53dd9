/**
 * The real clock: connections to a server process or URL, recorded into the trace with real times;
 * the handshake; owned processes and their reaper; plans of client actions and the runner that
 * carries them out. Like src/sim/ (the virtual clock), it knows nothing of verdicts.
 */
export { type Endpoint, type TargetConnection, type TargetVisibility, BadTargetError } from './connection.ts';
export { Inbox } from './Inbox.ts';
export { startProcess, argvOf, commandLabel, type CommandSpec, type ProcessTargetOptions, type StartedProcess } from './startProcess.ts';
export { handshake, KNOWN_PROTOCOL_VERSIONS, REQUESTED_PROTOCOL_VERSION, type ServerHello } from './handshake.ts';
export { ownedPids, reaperPid } from './processRegistry.ts';
export { freePort } from './freePort.ts';
