import fc from 'fast-check';
import type { CallerOption, ClientAction, ClientProgram, ServerCallPlan, ServerStep } from '../../real/clientScript.ts';
import { clientCaseArbitrary } from '../../workload/clientCaseArbitrary.ts';
import type { ClientTransport } from '../testbed/languages.ts';
import { TargetArgumentError } from '../Target.ts';
import { ALL_SCENARIOS, CLIENT_SCENARIOS, type ClientScenario } from './clientScenarios.ts';

/**
 * One case of an SDK's client on one transport: a fixed scenario by its name, or a generated
 * one (`clientCaseArbitrary`) with the scripted server's plan and the client script inline. Plain
 * JSON, as a replay file stores it.
 */
export type ClientCase = FixedClientCase | GeneratedClientCase;

export interface FixedClientCase {
  readonly scenario: string;
  readonly transport: ClientTransport;
}

export interface GeneratedClientCase extends ClientProgram {
  readonly transport: ClientTransport;
}

/** The name a generated case's scenario goes by in reports and runs. */
export const GENERATED = 'generated';

export const isGenerated = (c: ClientCase): c is GeneratedClientCase => 'plan' in c && 'script' in c;

/** The scenario a case runs: a fixed one by name (refused with the names there are when this release of mcp-sim has none of it), or the generated case's own. */
export function scenarioOfCase(c: ClientCase): ClientScenario {
  if (isGenerated(c)) return { name: GENERATED, question: 'a generated case: does the client do what the model says, whatever the server and the caller do?', plan: c.plan, script: c.script };
  const scenario = CLIENT_SCENARIOS.find((s) => s.name === c.scenario);
  if (!scenario) throw new TargetArgumentError(`mcp-sim: the case names client scenario ${JSON.stringify(c.scenario)}, which this release of mcp-sim does not have: one of ${CLIENT_SCENARIOS.map((s) => s.name).join(', ')}.`);
  return scenario;
}

/**
 * The generated campaign's cases: `runs` cases of `seed` (the same for the same seed and caller
 * options), each on the next of the transports asked for in turn.
 */
export function generatedClientCases(seed: number, runs: number, transports: readonly ClientTransport[], options: readonly CallerOption[]): GeneratedClientCase[] {
  if (runs === 0) return [];
  return fc.sample(clientCaseArbitrary({ options }), { seed, numRuns: runs }).map((p, k) => ({ transport: transports[k % transports.length]!, ...p }));
}

/**
 * The fixed scenarios `--scenario` names (`all`: every one), or undefined when it names none: the
 * generated campaign. An unknown name is refused with the names there are.
 */
export function scenariosOf(names: readonly string[] | undefined, form: string): readonly ClientScenario[] | undefined {
  if (names === undefined || names.length === 0) return undefined;
  if (names.includes(ALL_SCENARIOS)) return CLIENT_SCENARIOS;
  const unknown = names.find((n) => !CLIENT_SCENARIOS.some((s) => s.name === n));
  if (unknown !== undefined) throw new TargetArgumentError(`mcp-sim check ${form}: unknown --scenario ${JSON.stringify(unknown)}: ${ALL_SCENARIOS}, or one of ${CLIENT_SCENARIOS.map((s) => s.name).join(', ')}.`);
  return CLIENT_SCENARIOS.filter((s) => names.includes(s.name));
}

/**
 * The campaign's cases: `runs` of them, cycling through each scenario on each transport asked
 * for (a transport's scenarios in order, then the next transport's), so `--runs` a multiple of
 * their number runs each equally often. No seed draws them: each scenario is a fixed question.
 */
export function clientCases(scenarios: readonly ClientScenario[], transports: readonly ClientTransport[], runs: number): FixedClientCase[] {
  const pairs = transports.flatMap((transport) => scenarios.map((s) => ({ scenario: s.name, transport })));
  return Array.from({ length: runs }, (_, k) => pairs[k % pairs.length]!);
}

/** One line per action of a case, for reports: the scenario's question, then what the caller does and when (and, for a generated case, what the server does). */
export function describeClientCase(c: ClientCase): string[] {
  if (isGenerated(c)) {
    const policy = c.script.serverRequests;
    return [
      `generated case over ${c.transport} (deadline ${c.script.deadlineMs} ms)`,
      ...c.script.actions.map(actionLine),
      ...Object.entries(c.plan.calls).map(([label, plan]) => serverLine(label, plan)),
      ...(Object.values(c.plan.calls).some((p) => p.steps.some((s) => s.kind === 'request')) ? [`the client's handlers ${policy.hang ? 'never answer' : policy.delayMs > 0 ? `answer after ${policy.delayMs} ms` : 'answer at once'}`] : []),
    ];
  }
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

/** What the scripted server does on one call, in one line. */
function serverLine(label: string, plan: ServerCallPlan): string {
  const end = plan.end.kind === 'result' ? 'answers with a result' : plan.end.kind === 'error' ? `answers with error ${plan.end.code}` : 'never answers';
  const steps = plan.steps.map(stepWords);
  const after = (plan.after ?? []).map(stepWords);
  return `on ${label} the server ${[...steps, end].join(', then ')}${after.length ? `; after its answer ${after.join(', ')}` : ''}; a cancel of it: ${plan.onCancel === 'stop' ? 'stops it' : plan.onCancel === 'respond' ? 'answered anyway' : 'ignored'}`;
}

function stepWords(s: ServerStep): string {
  if (s.kind === 'sleep') return `waits ${s.ms} ms`;
  if (s.kind === 'progress') return `sends progress ${s.progress}${s.total !== undefined ? `/${s.total}` : ''}${s.token === 'invented' ? ' with a token it invented' : ''}`;
  const id = s.id === undefined ? '' : s.id === 'call' ? " with the call's own id" : ` with id ${s.id}`;
  const wait = s.cancelAfterMs !== undefined ? `, cancels it after ${s.cancelAfterMs} ms (then waits ${s.graceMs ?? 200} ms)` : s.timeoutMs !== undefined ? `, waits up to ${s.timeoutMs} ms for the answer` : ', waits for the answer';
  return `asks ${s.method}${id}${wait}`;
}
