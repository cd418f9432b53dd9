import { COMMON_FLAGS, flagSet, REAL_TIME_FLAGS, TOOL_FLAGS } from '../../options/checkFlags.ts';
import { envOf, processWords, shellWord } from '../words.ts';
import { TargetArgumentError, type TargetKindDefinition } from '../Target.ts';

/**
 * A server process in any language, spoken to over its stdin and stdout: `check -- python
 * server.py`. Real time: mcp-sim is the client, places every action relative to what it saw,
 * and gives each finding its reproduction rate.
 */
export const processKind: TargetKindDefinition<'process'> = {
  kind: 'process',
  clock: 'real',
  author: 'user',
  forms: ['-- <command> ...   a stdio server in any language (python server.py, go run ., java -jar s.jar), real time'],
  parse(argument, command, flags) {
    if (command === undefined) return undefined;
    if (argument !== undefined) throw new TargetArgumentError(`mcp-sim check: ${JSON.stringify(argument)} and a command after --: name one target (check -- <command> for a stdio server).`);
    if (command.length === 0) throw new TargetArgumentError('mcp-sim check: nothing after --: give the command that starts the stdio server (check -- python server.py).');
    const env = envOf(flags.env);
    return { kind: 'process', command: [...command], ...(flags.cwd !== undefined && { cwd: flags.cwd }), ...(Object.keys(env).length > 0 && { env }) };
  },
  argumentOf: (spec) => [...processWords(spec), '--', ...(typeof spec.command === 'string' ? ['sh', '-c', shellWord(spec.command)] : spec.command.map(shellWord))],
  flags: flagSet(COMMON_FLAGS, TOOL_FLAGS, REAL_TIME_FLAGS, ['--cwd', '--env']),
  async openReal(spec, settings) {
    const { openProcess } = await import('./open.ts');
    return openProcess(spec, { graceMs: settings.graceMs, choice: settings, argument: processKind.argumentOf(spec), ...(settings.wire && { wire: settings.wire }) });
  },
  refusal: (flag) =>
    flag === '--start'
      ? '--start starts a server that listens on a URL: give the URL as the target (check http://127.0.0.1:{port}/mcp --start "<command>"); a stdio server is started by the command after --'
      : `${flag} does not apply to a stdio server process: it runs on its own clock, spoken to from outside (the in-process campaign's flags are for sdk@<release>)`,
};
