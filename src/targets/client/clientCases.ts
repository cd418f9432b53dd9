import type { ClientTransport } from '../testbed/languages.ts';
import { TargetArgumentError } from '../Target.ts';
import { CLIENT_SCENARIOS, type ClientScenario } from './clientScenarios.ts';
import type { ClientAction } from './clientScript.ts';

/**
 * One case of an SDK's client: a fixed scenario (the scripted server's plan and the client
 * script) on one transport. Plain JSON, as a replay file stores it.
 */
export interface ClientCase {
  readonly scenario: string;
  readonly transport: ClientTransport;
}

/** The scenarios `--scenario` names (all when it names none); an unknown name is refused with the names there are. */
export function scenariosOf(names: readonly string[] | undefined, form: string): readonly ClientScenario[] {
  if (names === undefined || names.length === 0) return CLIENT_SCENARIOS;
  const unknown = names.find((n) => !CLIENT_SCENARIOS.some((s) => s.name === n));
  if (unknown !== undefined) throw new TargetArgumentError(`mcp-sim check ${form}: unknown --scenario ${JSON.stringify(unknown)}: one of ${CLIENT_SCENARIOS.map((s) => s.name).join(', ')}.`);
  return CLIENT_SCENARIOS.filter((s) => names.includes(s.name));
}

/**
 * The campaign's cases: `runs` of them, cycling through each scenario on each transport asked
 * for (a transport's scenarios in order, then the next transport's), so `--runs` a multiple of
 * their number runs each equally often. No seed draws them: each scenario is a fixed question.
 */
export function clientCases(scenarios: readonly ClientScenario[], transports: readonly ClientTransport[], runs: number): ClientCase[] {
  const pairs = transports.flatMap((transport) => scenarios.map((s) => ({ scenario: s.name, transport })));
  return Array.from({ length: runs }, (_, k) => pairs[k % pairs.length]!);
}

/** One line per action of a case, for reports: the scenario's question, then what the caller does and when. */
export function describeClientCase(c: ClientCase): string[] {
  const scenario = CLIENT_SCENARIOS.find((s) => s.name === c.scenario);
  if (!scenario) return [`scenario ${c.scenario} over ${c.transport} (not one of this release of mcp-sim's scenarios)`];
  return [`scenario ${scenario.name} over ${c.transport}: ${scenario.question}`, ...scenario.script.actions.map(actionLine), ...(scenario.option ? [`(needs the caller option ${scenario.option}: a client without it runs the call with its timeout alone)`] : [])];
}

function actionLine(a: ClientAction): string {
  if (a.kind === 'abort') return `at ${a.atMs} ms the caller aborts ${a.call}`;
  if (a.kind === 'close') return `at ${a.atMs} ms the caller closes the client`;
  const options = [a.progress && 'with progress', a.timeoutMs !== undefined && `timeout ${a.timeoutMs} ms`, a.resetTimeoutOnProgress && 'reset on progress', a.maxTotalTimeoutMs !== undefined && `maximum total ${a.maxTotalTimeoutMs} ms`].filter(Boolean);
  return `at ${a.atMs} ms the caller calls ${a.call}${options.length ? ` (${options.join(', ')})` : ''}`;
}
