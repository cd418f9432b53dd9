import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { entryKey, showsFinding } from '../src/baseline/buildBaseline.ts';
import { singleRemovals } from '../src/campaign/minimize.ts';
import { runChecked } from '../src/check/index.ts';
import { installedSdk } from '../src/sdk/load.ts';
import { baseline } from './support.ts';
import { loadBaselines } from '../src/baseline/baseline.ts';

const sdk = installedSdk();

describe(`baseline of ${sdk.name}@${sdk.version}: every entry replays, minimally`, () => {
  it('exists for the installed SDK (npx mcp-sim baseline --update writes it)', () => {
    expect(baseline, `no baseline for ${sdk.name}@${sdk.version}`).toBeDefined();
  });

  // docs/findings.md is about the release its title names: another release (MCP_SIM_SDK) is not held to its citations.
  const doc = readFileSync(new URL('../docs/findings.md', import.meta.url), 'utf8');
  const documents = doc.startsWith(`# Findings: ${sdk.name} ${sdk.version}\n`);
  it.skipIf(!documents)('has every entry docs/findings.md cites (its replay commands work as printed)', () => {
    const cited = [...doc.matchAll(/--baseline "([^"<]+)"/g)].map((m) => m[1]!);
    const keys = new Set(baseline?.entries.map(entryKey));
    expect(cited.length).toBeGreaterThan(5);
    expect(cited.filter((k) => !keys.has(k))).toEqual([]);
  });

  // The session era's entries and those of every other rule set the release has a baseline of (`--spec`).
  for (const entry of loadBaselines(sdk.name, sdk.version).flatMap((b) => b.entries)) {
    const name = `${entry.invariant} on ${entry.variant} [${entry.shape}]`;
    const fires = showsFinding(runChecked, entry.invariant, entry.variant, entry.clause);

    it(`${name}: still reproduces`, async () => {
      expect(
        await fires(entry.counterexample),
        `stale: ${name} no longer reproduces; the SDK fixed it, update the baseline (npx mcp-sim baseline --update)`,
      ).toBe(true);
    });

    it(`${name}: is minimal (removing any action, step, tape entry or deviation loses it)`, async () => {
      const survivors: string[] = [];
      for (const removal of singleRemovals(entry.counterexample)) {
        if (await fires(removal.case)) survivors.push(removal.what);
      }
      expect(survivors, `still fails without: ${survivors.join('; ')}`).toEqual([]);
    });
  }
});
