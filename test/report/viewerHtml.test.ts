import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBaselines } from '../../src/baseline/baseline.ts';
import { entryKey } from '../../src/baseline/buildBaseline.ts';
import { replayFile } from '../../src/campaign/replayFile.ts';
import { runChecked } from '../../src/check/index.ts';
import { extractReport, viewerHtml } from '../../src/report/html/viewerHtml.ts';
import { viewerData } from '../../src/report/html/viewerData.ts';
import type { ViewerData } from '../../src/report/html/viewerTypes.ts';
import { defaultSdk } from '../../src/sdk/load.ts';
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';
import { TEMPLATE_PATH, viewerTemplate } from '../../scripts/build-viewer.mjs';

/** A rich race of 1.32.2's baseline: the timeout's cancel crosses the response. */
export const RACE_ENTRY = 'cancel.late-response-silent memory reordered';

let sdk: SdkAdapter;
let report: Record<string, unknown>;
let data: ViewerData;
/** A run of the first finding. */
const runOf = (which: 'shrunk' | 'original' | 'counterfactual') => {
  const k = data.findings[0]!.runs[which];
  return k === undefined ? undefined : data.runs[k]!;
};
/** A field of step `k`, from the last step that has it (steps leave out what did not change). */
function at<K extends 'requests' | 'maps'>(steps: ViewerData['runs'][number]['steps'], k: number, field: K) {
  for (let j = k; j >= 0; j--) if (steps[j]![field] !== undefined) return steps[j]![field]!;
  return undefined;
}
beforeAll(async () => {
  sdk = await defaultSdk();
  const entry = loadBaselines(sdk.name, sdk.version)
    .flatMap((b) => b.entries)
    .find((e) => entryKey(e) === RACE_ENTRY)!;
  report = replayFile(entry.invariant, entry.counterexample, sdk) as unknown as Record<string, unknown>;
  data = await viewerData(report, { sdk });
});

describe('viewer template', () => {
  it('viewer.template.html: is what npm run build:viewer builds from src/report/html/page/ (run it after editing the page)', async () => {
    expect(readFileSync(TEMPLATE_PATH, 'utf8')).toBe(await viewerTemplate());
  });
});

describe('viewerData: a replay file of a baseline race (cancel.late-response-silent memory reordered)', () => {
  it('names the finding with its level, section and rule, and the replay command', () => {
    expect(data.findings).toHaveLength(1);
    const [f] = data.findings;
    expect(f).toMatchObject({ id: 'cancel.late-response-silent', invariant: 'cancel.late-response-silent', level: 'SHOULD', section: 'basic/utilities/cancellation' });
    expect(f!.property).toMatch(/response arriving after the caller cancelled/);
    expect(f!.message).toMatch(/after the cancel of c1/);
    expect(f!.commands.map((c) => c.command)).toContain('npx mcp-sim replay \'<this file>\'');
  });

  it('the shrunk run is the replay: the same trace hash as a run without the observer', async () => {
    // A replay file (version 2) holds its case under "case".
    const c = ((report as { case?: unknown }).case ?? report) as { scenario: never; tape: number[]; seed: number };
    const plain = await runChecked(c.scenario, { tape: c.tape, seed: c.seed, sdk });
    expect(runOf('shrunk')!.traceHash).toBe(plain.result.hash);
  });

  it('each step has the choice among the enabled actions, the requests and the SDK maps; the cancel empties _responseHandlers, the response then arrives late', () => {
    const steps = runOf('shrunk')!.steps;
    const chosen = steps.filter((s) => s.action !== undefined);
    expect(chosen.length).toBeGreaterThan(3);
    for (const s of chosen) expect(s.enabled![s.choice]).toBe(s.action);
    expect(chosen.some((s) => s.enabled!.length > 1)).toBe(true);
    const handlers = steps.map((_, k) => at(steps, k, 'maps')?.client?._responseHandlers?.length ?? -1);
    const emptied = handlers.findIndex((n, k) => k > 0 && handlers[k - 1]! > 0 && n === 0);
    expect(emptied).toBeGreaterThan(0);
    expect(at(steps, steps.length - 1, 'requests')!.find((r) => r.key === 'c1' && r.role === 'requester')!.wire).toBe('lateResponse');
  });

  it('the counterfactual: one choice put back to the natural order, without the finding', () => {
    const shrunk = runOf('shrunk')!;
    const counterfactual = runOf('counterfactual');
    expect(counterfactual).toBeDefined();
    expect(counterfactual!.findings.map((f) => f.invariant)).not.toContain('cancel.late-response-silent');
    expect(counterfactual!.tape.filter((x, k) => x !== shrunk.tape[k])).toHaveLength(1);
  });

  it('says what it cannot show: this file has no origin, so no original case', () => {
    expect(runOf('original')).toBeUndefined();
    expect(data.findings[0]!.absent.join(' ')).toMatch(/no "origin"/);
  });
});

describe('viewerHtml', () => {
  it('one self-contained page: a CSP that allows no request, no external resource, the report embedded and extractable, under 1 MB', () => {
    const html = viewerHtml(report, data);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'/);
    expect(html).not.toMatch(/<(link|iframe|img|object|embed)\b/i);
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(html).not.toMatch(/serviceWorker/);
    expect(extractReport(html)).toEqual(JSON.parse(JSON.stringify({ ...report, viewer: data })));
    expect(Buffer.byteLength(html)).toBeLessThan(1024 * 1024);
  });

  it('the same report gives the same bytes; wall-clock fields are nulled in the copy', async () => {
    const again = await viewerData(report, { sdk });
    expect(viewerHtml({ ...report, durationMs: 12 }, again)).toBe(viewerHtml({ ...report, durationMs: 34 }, data));
    expect(extractReport(viewerHtml({ ...report, durationMs: 12 }, data)).durationMs).toBeNull();
  });

  it('a real-time report (clock "real", a process target): its recorded traces drawn as recorded, one step per event in time order, nothing run again, and the page says so', async () => {
    const shrunk = runOf('shrunk')!;
    const real = await viewerData({ kind: 'fuzz', clock: 'real', findings: [{ invariant: 'cancel.late-response-silent', message: 'recorded', events: shrunk.events, replay: ['npx mcp-sim fuzz --replay x.json'] }] }, { sdk });
    expect(real.clock).toBe('real');
    // The recorded events, each its own step in the order of their times (real time has no scheduler to group them).
    const events = real.runs[0]!.events;
    expect(events.map(({ step: _s, ...e }) => e)).toEqual([...shrunk.events].sort((x, y) => x.t - y.t || x.i - y.i).map(({ step: _s, ...e }) => e));
    expect(events.map((e) => e.step)).toEqual(events.map((_, k) => k + 1));
    expect(real.runs[0]!.steps).toHaveLength(events.length + 1);
    expect(real.runs[0]!.steps.slice(1).map((s) => s.t)).toEqual(events.map((e) => e.t));
    // A trace whose events carry no step (what a report may hold): its steps are still one per event, never "step 0 / 0".
    const unstepped = await viewerData({ kind: 'campaign', clock: 'real', findings: [{ invariant: 'cancel.late-response-silent', trace: shrunk.events.map(({ step: _s, ...e }) => e) }] }, { sdk });
    expect(unstepped.runs[0]!.steps).toHaveLength(shrunk.events.length + 1);
    expect(real.runs[0]!.steps.every((s) => s.enabled === undefined && s.maps === undefined)).toBe(true);
    expect(real.findings[0]!.absent.join(' ')).toMatch(/real-time run is recorded, not replayed/);
    expect(viewerHtml({ clock: 'real' }, real)).toContain('"clock":"real"');
    expect(data.clock).toBe('virtual');
  });

  it("a real-time campaign's page shows its calls by tool (what the runs exercised), escaped", async () => {
    const counts = [{ tool: 'work<1>', calls: 11, cancels: 1, withToken: 10, closes: 0 }];
    const page = await viewerData({ kind: 'campaign', clock: 'real', toolCounts: counts, findings: [] }, { sdk });
    expect(page.toolCounts).toEqual(['calls of work<1>: 11 call(s), 1 cancelled, 10 with a progress token, 0 in flight at a close']);
    expect(viewerHtml({ clock: 'real' }, page)).toContain('<p class="efficiency">calls of work&lt;1&gt;: 11 call(s), 1 cancelled');
    expect((await viewerData({ kind: 'campaign', clock: 'real', toolCounts: [], findings: [] }, { sdk })).toolCounts).toBeUndefined();
  });

  it('a report that is not one: one line naming what it takes', async () => {
    await expect(viewerData({ kind: 'rogue' }, { sdk })).rejects.toThrow(/^view: the JSON is not a report of check \(a campaign or a sweep\), replay, explore or fuzz \(kind "rogue"\)/);
  });
});
