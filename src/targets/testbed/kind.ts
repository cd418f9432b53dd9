import { COMMON_FLAGS, flagSet } from '../../options/checkFlags.ts';
import { TargetArgumentError, type TargetKindDefinition } from '../Target.ts';
import { atRelease } from '../words.ts';
import { LAYER_CHOICES, layerChoiceOf, languageOf, LanguageError, TESTBED_TRANSPORTS } from './languages.ts';

/** Why a test bed refuses the flags a user's server takes, one line each. */
const TESTBED_REFUSALS: Readonly<Record<string, string>> = {
  '--args': "--args does not apply to a test bed: its one tool, run, is called with mcp-sim's generated handler programs",
  '--tools': "--tools does not apply to a test bed: its one tool, run, is called with mcp-sim's generated handler programs",
  '--reuse': '--reuse does not apply to a test bed: each case runs on a fresh process, so that its side channel speaks of that case alone',
  '--fresh': '--fresh does not apply to a test bed: each case runs on a fresh process already, so that its side channel speaks of that case alone',
  '--tool-duration': "--tool-duration does not apply to a test bed: its one tool runs mcp-sim's own programs, whose durations it knows",
  '--scenario': "--scenario is for an SDK's client: check client:<language>",
};

/**
 * An official SDK's test-bed server (testbeds/<language>/): it interprets mcp-sim's scripted
 * handler programs on that SDK, so the same generated case runs on every SDK, and writes its
 * handlers' events on a side channel. `testbed:go@v1.8.0`; a release not installed yet is
 * installed first. `--layer low|high` runs one of its two interpreters (the SDK's low-level
 * handlers, or the high-level API most servers use); without it, both, each case on one in turn.
 */
export const testbedKind: TargetKindDefinition<'testbed'> = {
  kind: 'testbed',
  clock: 'real',
  author: 'sdk',
  forms: ['testbed:<language>[@<release>]   an SDK test-bed server: typescript, python, go, rust or java (--transport stdio|http-<mode>, --layer low|high|both), real time'],
  parse(argument, command, flags) {
    if (command !== undefined || argument === undefined || !argument.startsWith('testbed:')) return undefined;
    const { name, release } = atRelease(argument.slice('testbed:'.length));
    let language;
    try {
      language = languageOf(name, argument);
    } catch (error) {
      throw new TargetArgumentError((error as LanguageError).message);
    }
    const transport = flags.transport;
    if (transport !== undefined && !(TESTBED_TRANSPORTS as readonly string[]).includes(transport)) {
      throw new TargetArgumentError(`mcp-sim check ${argument}: unknown --transport ${JSON.stringify(transport)}: one of ${TESTBED_TRANSPORTS.join(', ')}.`);
    }
    const layer = flags.layer === undefined ? 'both' : layerChoiceOf(flags.layer);
    if (layer === undefined) throw new TargetArgumentError(`mcp-sim check ${argument}: unknown --layer ${JSON.stringify(flags.layer)}: one of ${LAYER_CHOICES.join(', ')}.`);
    return {
      kind: 'testbed',
      language,
      ...(release !== undefined && { release }),
      ...(transport !== undefined && transport !== 'stdio' && { transport }),
      ...(layer !== 'both' && { layer }),
    };
  },
  argumentOf: (spec) => [
    `testbed:${spec.language}${spec.release === undefined ? '' : `@${spec.release}`}`,
    ...(spec.transport === undefined ? [] : ['--transport', spec.transport]),
    ...(spec.layer === undefined ? [] : ['--layer', spec.layer]),
  ],
  flags: flagSet(COMMON_FLAGS, ['--parallel', '--rate-runs', '--hang-after', '--duplicate-ids', '--transport', '--layer', '--update-baseline']),
  async openReal(spec, settings) {
    const { openTestbed } = await import('./open.ts');
    return openTestbed(spec, settings, testbedKind.argumentOf);
  },
  refusal: (flag) => TESTBED_REFUSALS[flag] ?? `${flag} does not apply to an SDK test bed: it runs on its own clock, spoken to from outside`,
};
