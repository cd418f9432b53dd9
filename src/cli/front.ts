import { CHECK_FLAGS } from '../options/checkFlags.ts';
import { resolveRealCampaignOptions, type ResolvedRealCampaignOptions } from '../options/realCampaignOptions.ts';
import { parseTarget, targetKind } from '../targets/kinds.ts';
import { wireBoundsOf } from '../real/wireBounds.ts';
import { TargetArgumentError, type TargetFlags, type TargetKindDefinition, type TargetSpec } from '../targets/Target.ts';

export { usageExit };
import { usageExit } from './usageExit.ts';

/** What commander parsed for `check`: every flag of the table, by attribute name. */
export type CheckOpts = Record<string, unknown>;

/** How `check` was asked for: the TARGET argument, the words after `--`, the flags, and which flags were typed. */
export interface CheckRequest {
  readonly argument: string | undefined;
  readonly command: readonly string[] | undefined;
  readonly opts: CheckOpts;
  /** The flags of the table typed on the command line (`--runs`, `--no-shrink`, …). */
  readonly given: readonly string[];
}

/**
 * `mcp-sim check [TARGET]`: the target named by the argument (or the words after `--`), every
 * flag typed checked against what that kind takes (one that does not apply is refused with why,
 * exit 2), then the one campaign on it: in process (an SDK release, a module) or in real time
 * (a process, a URL, an SDK's test bed or client).
 */
export async function checkFront(request: CheckRequest): Promise<number> {
  try {
    const { opts } = request;
    const flags: TargetFlags = {
      ...(typeof opts.start === 'string' && { start: opts.start }),
      ...(typeof opts.cwd === 'string' && { cwd: opts.cwd }),
      ...(Array.isArray(opts.env) && { env: opts.env as string[] }),
      ...(typeof opts.transport === 'string' && { transport: opts.transport }),
      ...(typeof opts.layer === 'string' && { layer: opts.layer }),
      ...(typeof opts.config === 'string' && { config: opts.config }),
    };
    const spec = await parseTarget(request.argument, request.command, flags);
    const kind = await targetKind(spec.kind);
    const refused = request.given.find((name) => CHECK_FLAGS.some((f) => f.name === name) && !kind.flags.has(name));
    if (refused !== undefined) throw new TargetArgumentError(`mcp-sim check ${kind.argumentOf(spec as never).join(' ') || '(the installed SDK)'}: ${kind.refusal(refused)}.`);
    const clash = kind.clash?.(request.given);
    if (clash !== undefined) throw new TargetArgumentError(`mcp-sim check ${kind.argumentOf(spec as never).join(' ')}: ${clash}.`);
    if (opts.dryRun === true) return await dryRun(spec, kind, opts);
    if (kind.openReal) {
      const options = realOptions(spec, kind, opts);
      const target = await kind.openReal(spec as never, {
        graceMs: options.bounds.graceMs,
        ...(options.tools && { tools: options.tools }),
        ...(options.args && { args: options.args }),
        duplicateIds: options.duplicateIds,
        wire: wireBoundsOf(options.bounds),
        ...(options.scenarios && { scenarios: options.scenarios }),
        say: (line) => process.stderr.write(`${line}\n`),
      });
      const { checkReal } = await import('./checkReal.ts');
      return await checkReal(target, options);
    }
    return await inProcess(spec, opts);
  } catch (error) {
    return usageExit(error);
  }
}

/**
 * `--dry-run`: the target and every option resolved, as JSON on stdout, and nothing run: what a
 * user checks before a long campaign, and what a test reads to see that each flag arrived.
 */
async function dryRun(spec: TargetSpec, kind: TargetKindDefinition, opts: CheckOpts): Promise<number> {
  const { resolveCampaignOptions, resolveFuzzOptions } = await import('../options/index.ts');
  const { workloadOf } = await import('./workloadFlags.ts');
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  let options: unknown;
  if (spec.kind === 'sdk') {
    options = resolveCampaignOptions({
      ...(typeof opts.seed === 'number' && { seed: opts.seed }),
      ...(typeof opts.runs === 'number' && { runs: opts.runs }),
      ...(typeof opts.shrink === 'boolean' && { shrink: opts.shrink }),
      ...(opts.selfCheck === true && { selfCheck: true }),
      ...(str(opts.failOn) !== undefined && { failOn: str(opts.failOn) as never }),
      ...(opts.strictCauses === true && { strictCauses: true }),
      ...(str(opts.out) !== undefined && { reproDir: str(opts.out) }),
      ...(str(opts.json) !== undefined && { jsonFile: str(opts.json) }),
      ...(str(opts.junit) !== undefined && { junitFile: str(opts.junit) }),
      ...(str(opts.report) !== undefined && { markdownFile: str(opts.report) }),
      workload: workloadOf(opts),
      ...(typeof opts.workers === 'number' && { workers: opts.workers }),
      ...(str(opts.shard) !== undefined && { shard: str(opts.shard) }),
      ...(typeof opts.timeLimit === 'number' && { timeLimitSeconds: opts.timeLimit }),
      ...(str(opts.seeds) !== undefined && { seeds: str(opts.seeds) }),
      ...(str(opts.spec) !== undefined && { spec: str(opts.spec) as never }),
    });
    options = { ...(options as object), shrinks: opts.recordShrinks ? 'record' : opts.freshShrinks ? 'fresh' : 'kept' };
  } else if (spec.kind === 'module') {
    options = resolveFuzzOptions({
      module: spec.module,
      ...(typeof opts.runs === 'number' && { runs: opts.runs }),
      ...(typeof opts.seed === 'number' && { seed: opts.seed }),
      ...(str(opts.args) !== undefined && { argsFile: str(opts.args)! }),
      ...(typeof opts.shrink === 'boolean' && { shrink: opts.shrink }),
      ...(str(opts.failOn) !== undefined && { failOn: str(opts.failOn)! }),
      ...(str(opts.json) !== undefined && { jsonFile: str(opts.json)! }),
      ...(str(opts.junit) !== undefined && { junitFile: str(opts.junit)! }),
      ...(str(opts.report) !== undefined && { markdownFile: str(opts.report)! }),
      ...(str(opts.out) !== undefined && { reproDir: str(opts.out)! }),
    });
    options = { ...(options as object), tools: str(opts.tools)?.split(',') };
  } else {
    options = realOptions(spec, kind, opts);
  }
  const quiet = opts.quiet === true ? { quiet: true } : {};
  const html = str(opts.html) !== undefined ? { html: str(opts.html) } : {};
  process.stdout.write(`${JSON.stringify({ target: spec, options: { ...(options as object), ...quiet, ...html } }, null, 2)}\n`);
  return 0;
}

/**
 * A real-time campaign's options: the flags resolved with the kind's own defaults (an SDK's
 * client: one pass over its scenarios, one at a time); a user's server (a process or URL) fails
 * on every pitfall by default, an SDK's test bed or client from `should` up.
 */
function realOptions(spec: TargetSpec, kind: TargetKindDefinition, opts: CheckOpts): ResolvedRealCampaignOptions {
  const scenarios = typeof opts.scenario === 'string' ? opts.scenario.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  return resolveRealCampaignOptions(opts, { userServer: kind.author === 'user', ...kind.realDefaults?.(spec as never, scenarios) });
}

/** The kinds in process: an SDK release and a module, each with its presenter. */
async function inProcess(spec: TargetSpec, opts: CheckOpts): Promise<number> {
  switch (spec.kind) {
    case 'sdk':
      return (await import('./checkSdk.ts')).checkSdk(spec, opts);
    case 'module':
      return (await import('./checkModule.ts')).checkModule(spec, opts);
    default:
      throw new Error(`checkFront: no presenter for kind ${spec.kind}`);
  }
}

/**
 * `mcp-sim rogue [TARGET]`: the SDK in process (none, `sdk@<version>`: its own rogue rigs), or a
 * server from outside (`-- <command>`, a URL, `testbed:<language>`). The old spellings
 * (`--stdio`, `--url`, `--sdk`, `--target client|server`) say their new one once.
 */
export async function rogueFront(argument: string | undefined, command: readonly string[] | undefined, opts: CheckOpts): Promise<number> {
  try {
    const say = (old: string, now: string) => process.stderr.write(`mcp-sim: "${old}" is now "${now}" (the old spelling works for this release)\n`);
    let words = command;
    if (typeof opts.stdio === 'string') {
      say(`rogue --stdio ${JSON.stringify(opts.stdio)}`, `rogue -- ${opts.stdio}`);
      words = /^[\w./@:=,{}+\s-]+$/.test(opts.stdio) ? opts.stdio.trim().split(/\s+/) : ['sh', '-c', opts.stdio];
    }
    if (typeof opts.url === 'string') {
      say(`rogue --url ${opts.url}`, `rogue ${opts.url}`);
      argument = opts.url;
    }
    if (typeof opts.sdk === 'string') {
      say(`rogue --sdk ${opts.sdk}`, `rogue sdk@${opts.sdk}`);
      argument = `sdk@${opts.sdk}`;
    }
    if (typeof opts.target === 'string') {
      say(`rogue --target ${opts.target}`, `rogue --side ${opts.target}`);
      opts.side ??= opts.target;
    }
    const flags: TargetFlags = {
      ...(typeof opts.start === 'string' && { start: opts.start }),
      ...(typeof opts.cwd === 'string' && { cwd: opts.cwd }),
      ...(Array.isArray(opts.env) && { env: opts.env as string[] }),
      ...(typeof opts.transport === 'string' && { transport: opts.transport }),
      ...(typeof opts.layer === 'string' && { layer: opts.layer }),
    };
    const spec = await parseTarget(argument, words, flags);
    const rogue = await import('./rogue.ts');
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    if (spec.kind === 'sdk') {
      if (spec.release !== undefined) {
        const { parseSdkChoice, sdkFolderOf } = await import('../sdk/install.ts');
        const { ENV_SDK } = await import('../sdk/envNames.ts');
        const folder = await sdkFolderOf(parseSdkChoice(spec.release), { onInstall: (message) => process.stderr.write(`${message}\n`) });
        if (folder === undefined) delete process.env[ENV_SDK];
        else process.env[ENV_SDK] = folder;
      }
      return await rogue.rogueCommand({ ...(str(opts.side) && { side: str(opts.side) as 'client' | 'server' }), ...(str(opts.filter) && { filter: str(opts.filter)! }), ...(str(opts.json) && { json: str(opts.json)! }) });
    }
    if (opts.side !== undefined) throw new TargetArgumentError(`mcp-sim rogue ${argument ?? '-- …'}: --side picks the SDK's client or server in process; a ${spec.kind} target is a server`);
    const kind = await targetKind(spec.kind);
    if (!kind.openReal || spec.kind === 'client') throw new TargetArgumentError(`mcp-sim rogue: a ${spec.kind} target has no rogue peer: give the SDK (none, sdk@<version>), -- <command>, a URL or testbed:<language>`);
    const target = await kind.openReal(spec as never, { graceMs: resolveRealCampaignOptions({}, { userServer: true }).bounds.graceMs, say: (line) => process.stderr.write(`${line}\n`) });
    return await rogue.rogueTargetCommand(target, { ...(str(opts.filter) && { filter: str(opts.filter)! }), ...(str(opts.json) && { json: str(opts.json)! }) });
  } catch (error) {
    return usageExit(error);
  }
}
