/**
 * Self time of a V8 CPU profile by owner: which package or folder of mcp-sim the sampled code
 * belongs to. Time in node's internals and natives (streams, `makeTransferable`, JSON, the
 * garbage collector's callers) is charged to the nearest caller that is not node itself, with
 * the owner marked `[internal]`, so "who made node do it" is one line. The profiles' tables in
 * bench/README.md come from here.
 */

/** The parts of `Profiler.stop`'s profile read here. */
export interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }; readonly children?: readonly number[] }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileShare {
  readonly name: string;
  /** Share of the sampled time, 0 … 1. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly sampledMs: number;
  readonly owners: readonly ProfileShare[];
  readonly functions: readonly ProfileShare[];
}

const VM_FRAMES = new Set(['(garbage collector)', '(program)', '(idle)']);

/** The owner of code at `url`: a package, a folder of mcp-sim's (`sim/http`), or undefined for node's own code. */
export function ownerOf(url: string): string | undefined {
  if (url === '' || url.startsWith('node:')) return undefined;
  const packageAt = url.lastIndexOf('node_modules/');
  if (packageAt !== -1) {
    const [scope, name] = url.slice(packageAt + 'node_modules/'.length).split('/');
    if (scope === '@modelcontextprotocol') return 'the SDK';
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  const own = /\/(?:dist|src)\/([^/]+)(?:\/([^/]+)\/)?/.exec(url);
  if (own) return own[2] && own[1] === 'sim' ? `src/sim/${own[2]}` : `src/${own[1]}`;
  return url.replace(/^file:\/\/.*\//, '');
}

export function summarize(profile: CpuProfile, top = 30): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, t: number) => m.set(k, (m.get(k) ?? 0) + t);
  for (const [id, t] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    add(functions, `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist|src|bench)\//, '$1/')}:${lineNumber + 1}`, t);
    if (VM_FRAMES.has(functionName)) {
      add(owners, functionName, t);
      continue;
    }
    let owner = ownerOf(url);
    if (owner === undefined) {
      let at: number | undefined = node.id;
      while (owner === undefined && (at = parent.get(at)) !== undefined) owner = ownerOf(byId.get(at)!.callFrame.url);
      owner = `${owner ?? 'node'} [internal]`;
    }
    add(owners, owner, t);
  }
  const shares = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, t]) => ({ name, share: t / total }));
  return { sampledMs: total / 1000, owners: shares(owners), functions: shares(functions) };
}

export function formatSummary(s: ProfileSummary): string[] {
  const pct = (x: number) => `${(100 * x).toFixed(1).padStart(5)} %`;
  return [`${s.sampledMs.toFixed(0)} ms sampled`, '', 'by owner (node internals charged to their caller):', ...s.owners.map((o) => `${pct(o.share)}  ${o.name}`), '', 'by function (self time):', ...s.functions.map((f) => `${pct(f.share)}  ${f.name}`)];
}
