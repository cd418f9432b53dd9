import { COMMON_FLAGS, flagSet } from '../../options/checkFlags.ts';
import { DEFAULT_CLIENT_RATE_RUNS } from '../../options/defaults.ts';
import { TargetArgumentError, type TargetKindDefinition } from '../Target.ts';
import { atRelease } from '../words.ts';
import { CLIENT_TRANSPORTS, languageOf, LanguageError } from '../testbed/languages.ts';
import { CLIENT_SCENARIOS } from './clientScenarios.ts';

/** The common flags a client's fixed scenarios have no use for. */
const NO_SEED_NOR_SHRINK: readonly string[] = ['--seed', '--shrink', '--no-shrink'];

/**
 * An official SDK's client, roles inverted: its test-bed client (testbeds/<language>/, CLIENT.md)
 * is driven by a script and talks to mcp-sim's scripted server, which does what each scenario
 * needs (answers late, cancels its own request, sends progress after the response, …).
 * `client:python@2.3.0`; over stdio and HTTP unless `--transport` names one. Real time, judged
 * by the model with the client under test; one pass over its scenarios by default.
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
  // The common flags but --seed and --shrink (fixed scenarios, each minimal), and what a client takes more.
  flags: flagSet([...COMMON_FLAGS].filter((f) => !NO_SEED_NOR_SHRINK.includes(f)), ['--rate-runs', '--transport', '--scenario', '--update-baseline']),
  realDefaults: (spec, scenarios) => ({ runs: (scenarios?.length ?? CLIENT_SCENARIOS.length) * (spec.transport === undefined ? CLIENT_TRANSPORTS.length : 1), parallel: 1, rateRuns: DEFAULT_CLIENT_RATE_RUNS }),
  async openReal(spec, settings) {
    const { openClient } = await import('./open.ts');
    return openClient(spec, settings, clientKind.argumentOf);
  },
  refusal: (flag) =>
    NO_SEED_NOR_SHRINK.includes(flag)
      ? `${flag} does not apply to an SDK's client: its scenarios are fixed and each is one minimal question, so nothing draws or shrinks them (--runs cycles through them, --rate-runs re-runs each finding for its rate)`
      : flag === '--parallel'
        ? "--parallel does not apply to an SDK's client: its scenarios run one at a time, their timings leaving 100 ms of slack that a second client starting beside them would eat"
        : `${flag} does not apply to an SDK's client: mcp-sim is the server there, and runs each fixed scenario against the client in real time`,
};
