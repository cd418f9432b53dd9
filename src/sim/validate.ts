import { MAX_HTTP_CLIENTS, methodSender, type CallerAction, type HandlerProgram, type Scenario } from './scenario.ts';

/** Bad input to the runner, with the path of the offending field and the rule it breaks. */
export class ScenarioError extends Error {
  constructor(path: string, rule: string) {
    super(`runScenario: ${path} ${rule}`);
    this.name = 'ScenarioError';
  }
}

const isNonNegativeFinite = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function checkDuration(path: string, v: unknown, optional = true): void {
  if (v === undefined && optional) return;
  if (!isNonNegativeFinite(v)) throw new ScenarioError(path, `must be a finite number of ms ≥ 0, got ${JSON.stringify(v)}`);
}

/** Rejects a scenario the world could not run faithfully, before anything runs. */
export function validateScenario(scenario: Scenario): void {
  if (!scenario || typeof scenario !== 'object') throw new ScenarioError('scenario', 'must be an object');
  if (scenario.profile !== 'memory' && scenario.profile !== 'http' && scenario.profile !== 'http-2026') {
    throw new ScenarioError('scenario.profile', `must be 'memory', 'http' or 'http-2026', got ${JSON.stringify(scenario.profile)}`);
  }
  if (scenario.http !== undefined) validateHttpMode(scenario);
  if (scenario.server !== undefined && scenario.server !== 'scripted' && scenario.server !== 'hosted') {
    throw new ScenarioError('scenario.server', `must be 'scripted' or 'hosted', got ${JSON.stringify(scenario.server)}`);
  }
  if (scenario.server === 'hosted' && scenario.profile !== 'memory') throw new ScenarioError('scenario.server', "'hosted' needs profile 'memory'");
  if (scenario.network !== undefined) {
    if (!Array.isArray(scenario.network.responses) || scenario.network.responses.length === 0) {
      throw new ScenarioError('scenario.network.responses', 'must be a non-empty array of {status, body, latencyMs}');
    }
    scenario.network.responses.forEach((r, i) => checkDuration(`scenario.network.responses[${i}].latencyMs`, r.latencyMs, false));
  }
  if (!scenario.handlers || typeof scenario.handlers !== 'object') {
    throw new ScenarioError('scenario.handlers', 'must be an object of handler programs by name');
  }
  for (const [name, program] of Object.entries(scenario.handlers)) validateHandler(`scenario.handlers.${name}`, program, scenario);
  if (!Array.isArray(scenario.actions)) throw new ScenarioError('scenario.actions', 'must be an array');
  const calls = new Set<string>();
  const signals = new Set<string>();
  scenario.actions.forEach((action, i) => validateAction(`scenario.actions[${i}]`, action, scenario, calls, signals));
}

function validateHandler(path: string, p: HandlerProgram, scenario: Scenario): void {
  if (!['honour', 'ignore', 'swallow'].includes(p.onAbort)) {
    throw new ScenarioError(`${path}.onAbort`, `must be 'honour', 'ignore' or 'swallow', got ${JSON.stringify(p.onAbort)}`);
  }
  if (!Array.isArray(p.steps)) throw new ScenarioError(`${path}.steps`, 'must be an array');
  p.steps.forEach((step, i) => {
    const at = `${path}.steps[${i}]`;
    switch (step.kind) {
      case 'progress':
        if (typeof step.progress !== 'number') throw new ScenarioError(`${at}.progress`, 'must be a number');
        return;
      case 'sleep':
        return checkDuration(`${at}.ms`, step.ms, false);
      case 'call':
        if (!(step.method in methodSender)) throw new ScenarioError(`${at}.method`, `is not a known method: ${JSON.stringify(step.method)}`);
        if (step.handler !== undefined && !(step.handler in scenario.handlers)) {
          throw new ScenarioError(`${at}.handler`, `names an unknown handler ${JSON.stringify(step.handler)}; known: ${Object.keys(scenario.handlers).join(', ') || 'none'}`);
        }
        return checkDuration(`${at}.timeoutMs`, step.timeoutMs);
      default:
        throw new ScenarioError(`${at}.kind`, `must be 'progress', 'sleep' or 'call', got ${JSON.stringify((step as { kind: unknown }).kind)}`);
    }
  });
  if (!p.end || !['result', 'error', 'hang'].includes(p.end.kind)) {
    throw new ScenarioError(`${path}.end`, `must be {kind: 'result' | 'error' | 'hang'}, got ${JSON.stringify(p.end)}`);
  }
}

/** How many clients the scenario has (`http.clients`, 1 unless set). */
function clientCount(scenario: Scenario): number {
  return scenario.profile === 'http' ? (scenario.http?.clients ?? 1) : 1;
}

function validateAction(path: string, a: CallerAction, scenario: Scenario, calls: Set<string>, signals: Set<string>): void {
  if (a && typeof a === 'object' && 'client' in a && a.client !== undefined) {
    const n = clientCount(scenario);
    if (!Number.isSafeInteger(a.client) || a.client < 0 || a.client >= n) {
      throw new ScenarioError(
        `${path}.client`,
        `must be a client index from 0 to ${n - 1} (the scenario has ${n} client${n === 1 ? '' : 's'}; set http.clients for more), got ${JSON.stringify(a.client)}`,
      );
    }
  }
  switch (a.kind) {
    case 'call': {
      if (typeof a.call !== 'string' || calls.has(a.call)) {
        throw new ScenarioError(`${path}.call`, `must be a label unique in the scenario, got ${JSON.stringify(a.call)}`);
      }
      calls.add(a.call);
      if (!(a.method in methodSender)) throw new ScenarioError(`${path}.method`, `is not a known method: ${JSON.stringify(a.method)}`);
      if (scenario.server === 'hosted') {
        if (a.method !== 'tools/call') throw new ScenarioError(`${path}.method`, `must be 'tools/call' on a hosted server, got ${JSON.stringify(a.method)}`);
        if (typeof a.handler !== 'string') throw new ScenarioError(`${path}.handler`, 'must name one of the hosted server\'s tools');
      } else if (!(a.handler in scenario.handlers)) {
        throw new ScenarioError(`${path}.handler`, `names an unknown handler (tool) ${JSON.stringify(a.handler)}; known: ${Object.keys(scenario.handlers).join(', ') || 'none'}`);
      }
      const o = a.options ?? {};
      checkDuration(`${path}.options.timeoutMs`, o.timeoutMs);
      checkDuration(`${path}.options.maxTotalTimeoutMs`, o.maxTotalTimeoutMs);
      if (o.signal !== undefined) signals.add(o.signal);
      return;
    }
    case 'abort':
      if (!signals.has(a.signal)) {
        throw new ScenarioError(`${path}.signal`, `names signal ${JSON.stringify(a.signal)} that no earlier call uses`);
      }
      return;
    case 'close':
      if (a.side !== 'client' && a.side !== 'server') throw new ScenarioError(`${path}.side`, "must be 'client' or 'server'");
      return;
    case 'reconnect':
      if (a.fresh !== undefined && typeof a.fresh !== 'boolean') throw new ScenarioError(`${path}.fresh`, `must be a boolean, got ${JSON.stringify(a.fresh)}`);
      // One `Server` per HTTP session: a new client there is a new session of a new `Server` already.
      if (a.fresh && scenario.profile !== 'memory') throw new ScenarioError(`${path}.fresh`, "needs profile 'memory'");
      return;
    case 'http-drop':
      if (scenario.profile === 'memory') throw new ScenarioError(`${path}.kind`, "'http-drop' needs profile 'http' or 'http-2026'");
      return;
    case 'http-post':
      if (scenario.profile === 'memory') throw new ScenarioError(`${path}.kind`, "'http-post' needs profile 'http' or 'http-2026'");
      if (a.body === undefined) throw new ScenarioError(`${path}.body`, 'must be the JSON body to POST');
      return;
    default:
      throw new ScenarioError(`${path}.kind`, `must be 'call', 'abort', 'close', 'reconnect', 'http-post' or 'http-drop', got ${JSON.stringify((a as { kind: unknown }).kind)}`);
  }
}

function validateHttpMode(scenario: Scenario): void {
  const m = scenario.http!;
  if (scenario.profile !== 'http') throw new ScenarioError('scenario.http', "applies to profile 'http' only; remove it or set profile: 'http'");
  if (typeof m !== 'object' || m === null) throw new ScenarioError('scenario.http', 'must be {stateful, response, eventStore}');
  if (typeof m.stateful !== 'boolean') throw new ScenarioError('scenario.http.stateful', `must be a boolean, got ${JSON.stringify(m.stateful)}`);
  if (m.response !== 'json' && m.response !== 'sse') throw new ScenarioError('scenario.http.response', `must be 'json' or 'sse', got ${JSON.stringify(m.response)}`);
  if (typeof m.eventStore !== 'boolean') throw new ScenarioError('scenario.http.eventStore', `must be a boolean, got ${JSON.stringify(m.eventStore)}`);
  checkDuration('scenario.http.keepAliveMs', m.keepAliveMs);
  if (m.clients !== undefined) {
    if (!Number.isSafeInteger(m.clients) || m.clients < 1 || m.clients > MAX_HTTP_CLIENTS) {
      throw new ScenarioError('scenario.http.clients', `must be an integer from 1 to ${MAX_HTTP_CLIENTS}, got ${JSON.stringify(m.clients)}`);
    }
    if (m.clients > 1 && !m.stateful) {
      throw new ScenarioError('scenario.http.clients', 'above 1 needs stateful: true (several clients are told apart by their Mcp-Session-Id)');
    }
  }
}

/** A tape is a list of naturals; anything else is a mistake worth naming. */
export function validateTape(tape: readonly number[]): void {
  if (!Array.isArray(tape)) throw new ScenarioError('tape', 'must be an array of naturals');
  tape.forEach((c, i) => {
    if (!Number.isSafeInteger(c) || c < 0) {
      throw new ScenarioError(`tape[${i}]`, `must be a natural (integer ≥ 0), got ${JSON.stringify(c)}`);
    }
  });
}
