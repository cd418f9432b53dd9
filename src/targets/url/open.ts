import type { Plan } from '../../real/plan.ts';
import { blackBoxSees } from '../endpoint/blackBoxSees.ts';
import { planTarget, type ToolChoice } from '../endpoint/planTarget.ts';
import { systemOf } from '../process/open.ts';
import type { RealTarget, SpecOf } from '../Target.ts';
import type { WireBounds } from '../../real/wireBounds.ts';
import { languageOfCommand } from '../serverLanguage.ts';
import { checkUrl, httpEndpoint } from './httpEndpoint.ts';

/** A Streamable HTTP endpoint, opened for the campaign: a session per case (a started server per case, with `--start`). */
export function openUrl(spec: SpecOf<'url'>, settings: { readonly graceMs: number; readonly choice: ToolChoice; readonly argument: readonly string[]; readonly wire?: WireBounds }): RealTarget<Plan> {
  checkUrl(spec.url, spec.start !== undefined);
  const endpoint = httpEndpoint({ url: spec.url, ...(spec.start && { start: spec.start }) }, { graceMs: settings.graceMs, ...(settings.wire && { wire: settings.wire }) });
  const language = spec.start === undefined ? undefined : languageOfCommand(spec.start.command, spec.start.cwd);
  return planTarget(endpoint, {
    kind: 'url',
    variant: 'http',
    sees: blackBoxSees(endpoint.visibility),
    choice: settings.choice,
    describe: (server) => ({ kind: 'url', clock: 'real', runsOn: 'session', label: endpoint.label, argument: settings.argument, spec, ...(language && { language }), author: 'user', ...(server && systemOf(server.info)) }),
  });
}
