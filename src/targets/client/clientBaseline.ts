import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINES_DIR } from '../../util/projectPaths.ts';
import { invariants, type InvariantId } from '../../model/invariants.ts';
import { writeFileAtomic } from '../../util/atomicWrite.ts';
import { shapeKey } from '../../workload/shape.ts';
import type { ClientTransport } from '../testbed/languages.ts';
import type { TestbedBaseline } from '../testbed/testbedBaseline.ts';
import type { KnownRealCause, RealBaseline } from '../Target.ts';
import { isGenerated, type ClientCase, type FixedClientCase } from './clientCases.ts';
import { clientCaseShape } from '../../workload/clientCaseShape.ts';

/**
 * One known finding of an SDK release's client: the invariant, where it ran, and the fixed
 * scenario that showed it, or (the generated campaign's) the features of its minimal case.
 */
export interface ClientBaselineEntry {
  readonly invariant: InvariantId;
  readonly transport: ClientTransport;
  readonly scenario?: string;
  /** `shapeKey` of a generated minimal case (`clientCaseShape`): the runs whose features cover it are this finding's. */
  readonly shape?: string;
  /** The finding's message and rate when `--update-baseline` wrote it (absent on entries carried over from the client's own judge's ids). */
  readonly message?: string;
  readonly rate?: { readonly hits: number; readonly runs: number };
}

/**
 * The known findings of one SDK release's test-bed client (`check client:<language>@<version>
 * --update-baseline` writes it): a test bed's baseline file (the release, the command that wrote
 * each transport's entries), of its own kind and entries.
 */
export type ClientBaseline = Omit<TestbedBaseline, 'kind' | 'language' | 'entries'> & {
  readonly kind: 'client-baseline';
  readonly language: string;
  readonly entries: readonly ClientBaselineEntry[];
};

/** `properties/baselines/clients/<language>@<version>.json`, in mcp-sim's own folder (shipped with the package). */
export const clientBaselinePath = (language: string, version: string): string => join(BASELINES_DIR, 'clients', `${language}@${version}.json`);

/** The client baseline of a release, or undefined when it has none yet; a file of another shape, or naming an id not in the catalogue, is refused with what to do. */
export function loadClientBaseline(language: string, version: string): ClientBaseline | undefined {
  const file = clientBaselinePath(language, version);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as ClientBaseline;
  if (parsed.kind !== 'client-baseline' || parsed.language !== language || parsed.version !== version || !Array.isArray(parsed.entries)) {
    throw new Error(`loadClientBaseline: ${file} is not the client baseline of ${language} ${version} (kind "client-baseline"): write it again with check client:${language}@${version} --update-baseline`);
  }
  const unknown = parsed.entries.find((e) => !invariants.has(e.invariant));
  if (unknown) throw new Error(`loadClientBaseline: ${file} names invariant ${JSON.stringify(unknown.invariant)}, which is not in the catalogue (docs/invariants.md): write it again with check client:${language}@${version} --update-baseline`);
  return parsed;
}

/** A confirmed finding of a client campaign, as a baseline keeps it. */
interface Confirmed {
  readonly invariant: InvariantId;
  readonly message: string;
  readonly minimal: unknown;
  readonly rate: { readonly hits: number; readonly runs: number };
}

/** What a campaign runs, as its baseline reads it: fixed scenarios on transports, or the generated cases on transports. */
export type ClientRan = readonly FixedClientCase[] | { readonly generated: readonly ClientTransport[] };

/**
 * A release's client baseline as the campaign reads it. A campaign of fixed scenarios: each
 * entry of a (scenario, transport) it runs is a known cause (its invariant, the transport as its
 * variant, the scenario as its shape), and writing replaces the entries of exactly those pairs
 * with the confirmed findings. The generated campaign: each entry of a generated shape on a
 * transport it runs is a known cause, and writing replaces those. The others are kept (a campaign
 * of some scenarios leaves the rest as they were).
 */
export function clientBaselineOf(release: { readonly language: string; readonly sdk: string; readonly version: string }, ran: ClientRan): RealBaseline {
  const existing = loadClientBaseline(release.language, release.version);
  const generated = 'generated' in ran ? new Set<string>(ran.generated) : undefined;
  const pair = (e: { readonly transport: string; readonly scenario?: string }) => `${e.transport} ${e.scenario}`;
  const pairs = new Set(generated ? [] : (ran as readonly FixedClientCase[]).map(pair));
  const runs = (e: ClientBaselineEntry) => (generated ? e.shape !== undefined && generated.has(e.transport) : e.scenario !== undefined && pairs.has(pair(e)));
  const entries = existing?.entries.filter(runs) ?? [];
  const known: KnownRealCause[] = entries.map((e) => ({ invariant: e.invariant, variant: e.transport, shape: e.shape ?? shapeKey(new Set([e.scenario!])) }));
  const what = generated ? 'the generated cases' : 'the scenarios run';
  return {
    known,
    summary: existing ? `${entries.length} known finding(s) in ${what} (${clientBaselinePath(release.language, release.version)})` : 'none yet (every finding is new)',
    write(findings, command) {
      const fresh = (findings as readonly Confirmed[]).map((f): ClientBaselineEntry => {
        const c = f.minimal as ClientCase;
        const where = isGenerated(c) ? { shape: shapeKey(clientCaseShape(c)) } : { scenario: c.scenario };
        return { invariant: f.invariant, transport: c.transport, ...where, message: f.message, rate: f.rate };
      });
      const transports = generated ? [...generated] : [...new Set((ran as readonly FixedClientCase[]).map((c) => c.transport))];
      const baseline: ClientBaseline = {
        kind: 'client-baseline',
        ...release,
        commands: { ...existing?.commands, ...Object.fromEntries(transports.map((t) => [generated ? `${t} generated` : t, command])) },
        entries: [...(existing?.entries ?? []).filter((e) => !runs(e)), ...fresh].sort(
          (a, b) => a.transport.localeCompare(b.transport) || (a.scenario ?? '').localeCompare(b.scenario ?? '') || (a.shape ?? '').localeCompare(b.shape ?? '') || a.invariant.localeCompare(b.invariant),
        ),
      };
      const file = clientBaselinePath(release.language, release.version);
      writeFileAtomic(file, `${JSON.stringify(baseline, null, 2)}\n`, { mkdir: true });
      return file;
    },
  };
}
