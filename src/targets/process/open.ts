import type { Plan } from '../../real/plan.ts';
import { commandLabel } from '../../real/startProcess.ts';
import { blackBoxSees } from '../endpoint/blackBoxSees.ts';
import { planTarget, type ToolChoice } from '../endpoint/planTarget.ts';
import type { RealTarget, SpecOf } from '../Target.ts';
import type { WireBounds } from '../../real/wireBounds.ts';
import { languageOfCommand } from '../serverLanguage.ts';
import { stdioEndpoint } from './stdioEndpoint.ts';

/** A stdio server process, opened for the campaign: a fresh process per case (or shared, `--reuse`). */
export function openProcess(spec: SpecOf<'process'>, settings: { readonly graceMs: number; readonly choice: ToolChoice; readonly argument: readonly string[]; readonly wire?: WireBounds }): RealTarget<Plan> {
  const { kind: _kind, ...command } = spec;
  const endpoint = stdioEndpoint(command, { graceMs: settings.graceMs, ...(settings.wire && { wire: settings.wire }) });
  const language = languageOfCommand(command.command, command.cwd);
  return planTarget(endpoint, {
    kind: 'process',
    variant: 'stdio',
    sees: blackBoxSees(endpoint.visibility),
    choice: settings.choice,
    describe: (server) => ({
      kind: 'process',
      clock: 'real',
      runsOn: 'process',
      label: `${commandLabel(command)} (stdio)`,
      argument: settings.argument,
      spec,
      ...(language && { language }),
      author: 'user',
      ...(server && systemOf(server.info)),
    }),
  });
}

/** The server's `serverInfo` as the software under test, when it named itself (an empty version, as mcp 2.3.0's `MCPServer` gives, is `?`: the report's schema wants one). */
export function systemOf(info: unknown): { system: { name: string; version: string } } | undefined {
  if (typeof info !== 'object' || info === null) return undefined;
  const { name, version } = info as { name?: unknown; version?: unknown };
  return typeof name === 'string' ? { system: { name, version: typeof version === 'string' && version !== '' ? version : '?' } } : undefined;
}
