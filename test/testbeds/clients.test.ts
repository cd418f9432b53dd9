import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InvariantId } from '../../src/model/invariants.ts';
import { DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS } from '../../src/options/defaults.ts';
import { readFileSync } from 'node:fs';
import { scenarioOfCase, type ClientCase } from '../../src/targets/client/clientCases.ts';
import { clientScenario } from '../../src/targets/client/clientScenarios.ts';
import { clientTrace } from '../../src/targets/client/clientTrace.ts';
import { judgeCase } from '../../src/campaign/real/judgeCase.ts';
import { CLIENT_JUDGING } from '../../src/targets/client/open.ts';

/** A client case judged by the one oracle, the client under test. */
const judgeClientCase = (trace: Parameters<typeof judgeCase>[0], options: Parameters<typeof judgeCase>[2]) => judgeCase(trace, CLIENT_JUDGING, options);
import { runClientScenario, type ClientRun, type ClientTransport } from '../../src/targets/client/runClientScenario.ts';
import { SDK_TESTBED_LANGUAGES, sdkTestbed, type SdkTestbedClient, type SdkTestbedLanguage } from '../../src/targets/testbed/index.ts';

/**
 * The SDK test-bed clients (testbeds/CLIENT.md) against mcp-sim's scripted server, real time:
 * the same scenarios (no race) give every SDK's caller the same outcomes and put the same
 * requests on the wire, modulo ids; and SDK bugs the model names (each run one trace, judged with
 * the client under test) are shown on the releases that have them and not on those that fixed them. A client that is not installed shows as a skipped
 * test whose name says why.
 */
const clientOf = (language: SdkTestbedLanguage, version?: string): SdkTestbedClient | string => {
  const bed = sdkTestbed(language, version === undefined ? {} : { version });
  if ('skipped' in bed) return bed.skipped;
  return 'missing' in bed.client ? bed.client.missing : bed.client;
};

/**
 * The client's requests and answers on the wire, ids left out (what every SDK must put there
 * alike), less the handshake and what SDKs add on their own: go-sdk v1.8.0's `server/discover`
 * probe, pings, and the Python SDK's `tools/list` after a tool result (to validate its output
 * schema, mcp/client/session.py).
 */
function clientFrames(run: ClientRun): string[] {
  return run.wire
    .filter((w) => w.dir === 'in' && w.frame)
    .map((w) => w.frame as Record<string, unknown>)
    .filter((f) => !['server/discover', 'ping', 'initialize', 'notifications/initialized', 'tools/list'].includes(f['method'] as string))
    .map((f) => (typeof f['method'] === 'string' ? `request ${f['method']} ${JSON.stringify((f['params'] as Record<string, unknown> | undefined)?.['arguments'] ?? '')}` : 'error' in f ? 'error answer' : 'answer'));
}

const outcomes = (run: ClientRun) => run.events.filter((e) => e.event === 'call-end').map((e) => `${e.call} ${e.outcome}${e.code === undefined ? '' : ` ${e.code}`}`);

async function run(language: SdkTestbedLanguage, scenario: string, transport: ClientTransport, version?: string) {
  const client = clientOf(language, version) as SdkTestbedClient;
  const s = clientScenario(scenario)!;
  const r = await runClientScenario(client.command, s, transport);
  const clock = { kind: 'real' as const, inFlightMs: DEFAULT_IN_FLIGHT_MS, hangAfterMs: DEFAULT_HANG_AFTER_MS, graceMs: DEFAULT_PROCESS_GRACE_MS };
  return { run: r, findings: judgeClientCase(clientTrace(r, s, client.options), { clock }).findings.map((f) => f.invariant) };
}

describe('test-bed clients: the same scenarios on every SDK (real time)', () => {
  const reference = clientOf('typescript');
  for (const language of SDK_TESTBED_LANGUAGES) {
    const client = clientOf(language);
    if (typeof client === 'string' || typeof reference === 'string') {
      it.skip(`${language}: skipped, ${typeof client === 'string' ? client : `the TypeScript reference: ${reference}`}`, () => {});
      continue;
    }
    for (const transport of client.transports) {
      it(`${language} over ${transport}: result, error and sampling settle as on TypeScript, with the same requests and answers on the wire`, async () => {
        for (const scenario of ['result', 'error', 'sampling']) {
          const [ours, theirs] = [await run(language, scenario, transport), await run('typescript', scenario, transport)];
          expect({ scenario, outcomes: outcomes(ours.run), frames: clientFrames(ours.run) }).toEqual({ scenario, outcomes: outcomes(theirs.run), frames: clientFrames(theirs.run) });
        }
      });
    }
  }
});

/** Findings the model makes on real SDK clients, each where the release has the bug and not where it is fixed (the client judge's id it replaced in brackets). */
const SHOWN: readonly { language: SdkTestbedLanguage; has: string; fixed?: string; scenario: string; transport: ClientTransport; invariant: InvariantId; why: string }[] = [
  { language: 'go', has: 'v1.8.0', scenario: 'close', transport: 'stdio', invariant: 'lifecycle.close-settles', why: '[client.close-settles] ClientSession.Close waits for the calls in flight (jsonrpc2 graceful close) and never settles them' },
  { language: 'go', has: 'v1.8.0', scenario: 'server-cancel', transport: 'stdio', invariant: 'cancel.no-response-after', why: '[client.server-cancel-no-response] jsonrpc2 answers a cancelled server request with error code 0 "context canceled"' },
  { language: 'typescript', has: '1.32.2', fixed: '2.4.0', scenario: 'server-cancel-id-0', transport: 'stdio', invariant: 'cancel.handler-aborted', why: "[client.server-cancel-handler-told] 1.x _oncancel drops a cancel of request id 0 (if (!requestId)); 2.x checks === undefined" },
  { language: 'python', has: '1.30.0', fixed: '2.0.0', scenario: 'timeout', transport: 'stdio', invariant: 'timeout.sends-cancel', why: '[client.cancel-on-timeout] mcp 1.x raises McpError 408 on a timeout and sends no notifications/cancelled (mcp/shared/session.py)' },
  { language: 'python', has: '1.30.0', fixed: '2.0.0', scenario: 'close', transport: 'http', invariant: 'lifecycle.close-settles', why: "[client.close-settles] mcp 1.x's receive loop never fans CONNECTION_CLOSED out to the calls in flight" },
  { language: 'java', has: '2.1.0', scenario: 'abort', transport: 'stdio', invariant: 'cancel.abort-sends-cancel', why: "[client.cancel-on-abort] the Java SDK's McpClientSession.sendRequest has no cancel hook: disposing the call sends nothing (no release has client cancellation)" },
  { language: 'rust', has: '2.1.0', fixed: '2.2.0', scenario: 'server-cancel', transport: 'stdio', invariant: 'cancel.no-response-after', why: "[client.server-cancel-no-response] rmcp 2.1.0 writes the cancelled handler's error as a response (rust-sdk #957, fixed in 2.2.0)" },
];

describe('test-bed clients: SDK bugs the model names, on the releases that have them', () => {
  for (const s of SHOWN) {
    const has = clientOf(s.language, s.has);
    const fixed = s.fixed === undefined ? undefined : clientOf(s.language, s.fixed);
    if (typeof has === 'string' || typeof fixed === 'string') {
      it.skip(`${s.language} ${s.has}: skipped, ${typeof has === 'string' ? has : fixed}`, () => {});
      continue;
    }
    it(`${s.language} ${s.has}: ${s.invariant} on ${s.scenario} (${s.why})${s.fixed ? `, not on ${s.fixed}` : ''}`, async () => {
      expect((await run(s.language, s.scenario, s.transport, s.has)).findings).toContain(s.invariant);
      if (s.fixed) expect((await run(s.language, s.scenario, s.transport, s.fixed)).findings).not.toContain(s.invariant);
    });
  }

  const go = clientOf('go');
  it.skipIf(typeof go === 'string')('a client finding comes back from its printed command through the one front door: check client:go --transport stdio --scenario close names it (known in the release\'s client baseline: exit 0)', () => {
    const r = spawnSync(process.execPath, ['bin/mcp-sim.js', 'check', 'client:go', '--transport', 'stdio', '--scenario', 'close', '--runs', '1'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/PASS .*known in the baseline: lifecycle\.close-settles/);
    expect(r.stdout).toMatch(/KNOWN lifecycle\.close-settles \(DERIVED\) \[stdio close\]: the caller closed the client at \d+ ms, but the close never completed and call c\d never settled/);
    expect(r.stdout).toMatch(/real time/);
  });

  const go170 = clientOf('go', 'v1.7.0');
  it.skipIf(typeof go170 === 'string')('a new client finding is a replay file (--out) that replay FILE runs again with its rate: go-sdk v1.7.0, which has no client baseline', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-client-replay-'));
    try {
      const r = spawnSync(process.execPath, ['bin/mcp-sim.js', 'check', 'client:go@v1.7.0', '--transport', 'stdio', '--scenario', 'close', '--runs', '1', '--rate-runs', '1', '--out', dir], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/FAIL .*lifecycle\.close-settles \(reproduced 1\/1\)/);
      const file = readdirSync(dir).find((f) => f.includes('lifecycle.close-settles'));
      expect(file).toBeDefined();
      const again = spawnSync(process.execPath, ['bin/mcp-sim.js', 'replay', join(dir, file!), '--rate-runs', '1'], { encoding: 'utf8' });
      expect(again.stdout).toMatch(/scenario close over stdio/);
      expect(again.stdout).toMatch(/reproduced: lifecycle\.close-settles, reproduced 1\/1/);
      expect(again.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * What the generated client campaign found that the fixed scenarios did not
 * (docs/sdk-clients-generated.md): its minimal case, kept as the replay file the campaign wrote.
 */
describe('test-bed clients: the generated campaign\'s findings, on the releases that have them', () => {
  const file = 'docs/sdk-clients/repro/typescript@1.32.2-cancel.in-flight-only.json';
  const has = clientOf('typescript', '1.32.2');
  const fixed = clientOf('typescript', '2.4.0');
  it.skipIf(typeof has === 'string' || typeof fixed === 'string')(
    'typescript 1.32.2: cancel.in-flight-only, an abort after the call resolved sends notifications/cancelled for it (request() never removes its abort listener; no fixed scenario aborts a call that ended), not on 2.4.0; replay FILE runs it as printed',
    async () => {
      const again = spawnSync(process.execPath, ['bin/mcp-sim.js', 'replay', file, '--rate-runs', '2'], { encoding: 'utf8' });
      expect(again.stdout).toMatch(/generated case over stdio/);
      expect(again.stdout).toMatch(/send client→server \[\d+\] notifications\/cancelled requestId=1/);
      expect(again.stdout).toMatch(/reproduced: cancel\.in-flight-only, reproduced 2\/2/);
      expect(again.status).toBe(0);
      const c = (JSON.parse(readFileSync(file, 'utf8')) as { case: ClientCase }).case;
      const clock = { kind: 'real' as const, inFlightMs: DEFAULT_IN_FLIGHT_MS, hangAfterMs: DEFAULT_HANG_AFTER_MS, graceMs: DEFAULT_PROCESS_GRACE_MS };
      const on = async (client: SdkTestbedClient) => judgeClientCase(clientTrace(await runClientScenario(client.command, scenarioOfCase(c), c.transport), scenarioOfCase(c), client.options), { clock }).findings.map((f) => f.invariant);
      expect(await on(fixed as SdkTestbedClient)).not.toContain('cancel.in-flight-only');
    },
    60_000,
  );
});
