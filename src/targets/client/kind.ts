import { TargetArgumentError, type TargetKindDefinition } from '../Target.ts';
import { atRelease } from '../words.ts';
import { CLIENT_TRANSPORTS, languageOf, LanguageError } from '../testbed/languages.ts';

/**
 * An official SDK's client, roles inverted: its test-bed client (testbeds/<language>/, CLIENT.md)
 * is driven by a script and talks to mcp-sim's scripted server, which does what each scenario
 * needs (answers late, cancels its own request, sends progress after the response, …).
 * `client:python@2.3.0`; over stdio and HTTP unless `--transport` names one.
 */
export const clientKind: TargetKindDefinition<'client'> = {
  kind: 'client',
  clock: 'real',
  forms: ["client:<language>[@<release>]    an SDK's client against mcp-sim's scripted server (--transport stdio|http), real time"],
  parse(argument, command, flags) {
    if (command !== undefined || argument === undefined || !argument.startsWith('client:')) return undefined;
    const { name, release } = atRelease(argument.slice('client:'.length));
    let language;
    try {
      language = languageOf(name, argument);
    } catch (error) {
      throw new TargetArgumentError((error as LanguageError).message);
    }
    const transport = flags.transport;
    if (transport !== undefined && !(CLIENT_TRANSPORTS as readonly string[]).includes(transport)) {
      throw new TargetArgumentError(`mcp-sim check ${argument}: unknown --transport ${JSON.stringify(transport)}: stdio or http (mcp-sim's scripted server is stateful Streamable HTTP).`);
    }
    return { kind: 'client', language, ...(release !== undefined && { release }), ...(transport !== undefined && { transport }) };
  },
  argumentOf: (spec) => [`client:${spec.language}${spec.release === undefined ? '' : `@${spec.release}`}`, ...(spec.transport === undefined ? [] : ['--transport', spec.transport])],
  flags: new Set(['--runs', '--json', '--report', '--quiet', '--dry-run', '--transport', '--update-baseline', '--scenario']),
  refusal: (flag) =>
    flag === '--seed' || flag === '--shrink' || flag === '--no-shrink'
      ? `${flag} does not apply to an SDK's client: its scenarios are fixed, each a minimal question (--runs runs each that many times for its rate)`
      : ['--junit', '--out', '--fail-on', '--html', '--rate-runs'].includes(flag)
        ? `${flag} is not offered for an SDK's client yet: its check writes its text report, --json and --report, and fails on any finding beyond its baseline`
        : `${flag} does not apply to an SDK's client: mcp-sim is the server there, and runs each fixed scenario against the client in real time`,
};
