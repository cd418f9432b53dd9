import type { Side } from '../sim/scenario.ts';

/**
 * The methods each protocol revision defines, by the side that may send them (from the
 * revisions' schema.ts: the ClientRequest / ServerRequest / ClientNotification /
 * ServerNotification unions). A frame under another name is no MCP message: a typo such as
 * `notifications/cancel` is a cancellation nobody honours.
 */
export type ProtocolRevision = '2024-10-07' | '2024-11-05' | '2025-03-26' | '2025-06-18' | '2025-11-25' | '2026-07-28';

interface MethodSet {
  readonly client: ReadonlySet<string>;
  readonly server: ReadonlySet<string>;
}

const base = {
  client: [
    'initialize',
    'ping',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'resources/subscribe',
    'resources/unsubscribe',
    'prompts/list',
    'prompts/get',
    'tools/list',
    'tools/call',
    'logging/setLevel',
    'completion/complete',
    'notifications/initialized',
    'notifications/cancelled',
    'notifications/progress',
    'notifications/roots/list_changed',
  ],
  server: [
    'ping',
    'sampling/createMessage',
    'roots/list',
    'notifications/cancelled',
    'notifications/progress',
    'notifications/message',
    'notifications/resources/updated',
    'notifications/resources/list_changed',
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
  ],
};
const elicitation = { client: [], server: ['elicitation/create'] };
const tasks = {
  client: ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel', 'notifications/tasks/status'],
  server: ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel', 'notifications/tasks/status', 'notifications/elicitation/complete'],
};

/**
 * 2026-07-28 starts over: no `initialize`/`notifications/initialized` (`server/discover` is the
 * optional probe; every request carries its own envelope), no `ping`, no server-to-client
 * requests (sampling, elicitation and roots became `input_required` results), no
 * `resources/subscribe`, `logging/setLevel` or tasks (`subscriptions/listen` replaces the
 * subscriptions). A server's `notifications/cancelled` is only for tearing down a listen stream.
 */
const modern = {
  client: [
    'server/discover',
    'subscriptions/listen',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'prompts/list',
    'prompts/get',
    'tools/list',
    'tools/call',
    'completion/complete',
    'notifications/cancelled',
  ],
  server: [
    'notifications/cancelled',
    'notifications/progress',
    'notifications/message',
    'notifications/resources/updated',
    'notifications/resources/list_changed',
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
    'notifications/subscriptions/acknowledged',
  ],
};

const union = (...parts: { client: string[]; server: string[] }[]): MethodSet => ({
  client: new Set(parts.flatMap((p) => p.client)),
  server: new Set(parts.flatMap((p) => p.server)),
});

const byRevision: Readonly<Record<ProtocolRevision, MethodSet>> = {
  '2024-10-07': union(base),
  '2024-11-05': union(base),
  '2025-03-26': union(base),
  '2025-06-18': union(base, elicitation),
  '2025-11-25': union(base, elicitation, tasks),
  '2026-07-28': union(modern),
};

/** The revisions this table knows; another negotiated revision is judged by the newest one. */
export const knownRevisions = Object.keys(byRevision) as ProtocolRevision[];

/** Whether `revision` defines `method` for `sender` to send (an unknown revision: the newest of the session era). */
export function definesMethod(revision: string, sender: Side, method: string): boolean {
  const set = byRevision[revision as ProtocolRevision] ?? byRevision['2025-11-25'];
  return set[sender].has(method);
}
