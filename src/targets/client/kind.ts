import { COMMON_FLAGS, flagSet } from '../../options/checkFlags.ts';
import { DEFAULT_CLIENT_RATE_RUNS, DEFAULT_CLIENT_RUNS } from '../../options/defaults.ts';
import { TargetArgumentError, type TargetKindDefinition } from '../Target.ts';
import { atRelease } from '../words.ts';
import { CLIENT_TRANSPORTS, languageOf, LanguageError } from '../testbed/languages.ts';
import { ALL_SCENARIOS, CLIENT_SCENARIOS } from './clientScenarios.ts';

/** The common flags a client's fixed scenarios have no use for (its generated cases take them). */
const NO_SEED_NOR_SHRINK: readonly string[] = ['--seed', '--shrink', '--no-shrink'];

/**
 * An official SDK's client, roles inverted: its test-bed client (testbeds/<language>/, CLIENT.md)
 * is driven by a script and talks to mcp-sim's scripted server, which does what each scenario
 * needs (answers late, cancels its own request, sends progress after the response, …).
 * `client:python@2.3.0`; over stdio and HTTP unless `--transport` names one. Real time, judged
 * by the model with the client under test: `DEFAULT_CLIENT_RUNS` generated cases by default (the
 * seed draws them, a finding is shrunk), or one pass over the fixed scenarios `--scenario` names.
 */
export const clientKind: TargetKindDefinition<'client'> = {
  kind: 'client',
  clock: 'real',
  author: 'sdk',
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
  // The common flags (--seed and --shrink for the generated cases only: `clash`), and what a client takes more.
  flags: flagSet(COMMON_FLAGS, ['--rate-runs', '--transport', '--scenario', '--update-baseline']),
  clash: (given) => {
    const flag = given.includes('--scenario') ? given.find((f) => NO_SEED_NOR_SHRINK.includes(f)) : undefined;
    return flag === undefined
      ? undefined
      : `${flag} does not apply with --scenario: the fixed scenarios are each one minimal question, so nothing draws or shrinks them (--runs cycles through them, --rate-runs re-runs each finding for its rate); leave --scenario out for the generated cases (${flag === '--seed' ? 'the seed draws them' : 'their findings are shrunk'})`;
  },
  realDefaults: (spec, scenarios) => ({
    runs: scenarios === undefined || scenarios.length === 0 ? DEFAULT_CLIENT_RUNS : (scenarios.includes(ALL_SCENARIOS) ? CLIENT_SCENARIOS.length : scenarios.length) * (spec.transport === undefined ? CLIENT_TRANSPORTS.length : 1),
    parallel: 1,
    rateRuns: DEFAULT_CLIENT_RATE_RUNS,
  }),
  async openReal(spec, settings) {
    const { openClient } = await import('./open.ts');
    return openClient(spec, settings, clientKind.argumentOf);
  },
  refusal: (flag) =>
    flag === '--parallel'
      ? "--parallel does not apply to an SDK's client: its cases run one at a time, their timings leaving 100 ms of slack that a second client starting beside them would eat"
      : `${flag} does not apply to an SDK's client: mcp-sim is the server there, and runs each case against the client in real time`,
};
