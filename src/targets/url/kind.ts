import { COMMON_FLAGS, flagSet, PROCESS_FLAGS, REAL_TIME_FLAGS, TOOL_FLAGS } from '../../options/checkFlags.ts';
import { envOf, processWords, shellWord } from '../words.ts';
import { TargetArgumentError, type TargetKindDefinition } from '../Target.ts';

/**
 * A Streamable HTTP endpoint, already running or started by mcp-sim (`--start "<command>"`,
 * `{port}` filled in with a free loopback port): `check http://127.0.0.1:8000/mcp`. Real time, a
 * session per run; seed 004's hung POST is a finding here.
 */
export const urlKind: TargetKindDefinition<'url'> = {
  kind: 'url',
  clock: 'real',
  author: 'user',
  forms: ['http://127.0.0.1:8000/mcp   a Streamable HTTP server (--start "<command>" starts it; {port} is a free port), real time'],
  parse(argument, command, flags) {
    if (argument === undefined || !/^https?:\/\//i.test(argument)) {
      if (flags.start !== undefined && argument === undefined && command === undefined) {
        throw new TargetArgumentError('mcp-sim check: --start needs the URL the started server answers on: check http://127.0.0.1:{port}/mcp --start "<command>".');
      }
      return undefined;
    }
    if (command !== undefined) throw new TargetArgumentError(`mcp-sim check: a URL and a command after --: to start the server first, give it as --start "<command>".`);
    if ((flags.cwd !== undefined || flags.env !== undefined) && flags.start === undefined) {
      throw new TargetArgumentError(`mcp-sim check: ${flags.cwd !== undefined ? '--cwd' : '--env'} is for the server mcp-sim starts: add --start "<command>", or leave it out for a server already running.`);
    }
    const env = envOf(flags.env);
    const start = flags.start === undefined ? undefined : { command: flags.start, ...(flags.cwd !== undefined && { cwd: flags.cwd }), ...(Object.keys(env).length > 0 && { env }) };
    return { kind: 'url', url: argument, ...(start && { start }) };
  },
  argumentOf: (spec) => [spec.url, ...(spec.start ? ['--start', shellWord(typeof spec.start.command === 'string' ? spec.start.command : spec.start.command.join(' ')), ...processWords(spec.start)] : [])],
  flags: flagSet(COMMON_FLAGS, TOOL_FLAGS, REAL_TIME_FLAGS, PROCESS_FLAGS),
  async openReal(spec, settings) {
    const { openUrl } = await import('./open.ts');
    return openUrl(spec, { graceMs: settings.graceMs, choice: settings, argument: urlKind.argumentOf(spec), ...(settings.wire && { wire: settings.wire }) });
  },
  refusal: (flag) => `${flag} does not apply to a Streamable HTTP endpoint: it runs on its own clock, spoken to from outside (the in-process campaign's flags are for sdk@<release>)`,
};
