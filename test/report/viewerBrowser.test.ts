import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaselines } from '../../src/baseline/baseline.ts';
import { entryKey } from '../../src/baseline/buildBaseline.ts';
import { replayFile } from '../../src/campaign/replayFile.ts';
import { viewerHtml } from '../../src/report/html/viewerHtml.ts';
import { viewerData } from '../../src/report/html/viewerData.ts';
import { defaultSdk } from '../../src/sdk/load.ts';
import { CHROMIUM_PATH, openBrowser } from '../../scripts/viewerBrowser.ts';
import { runMain } from '../cli/runMain.ts';

/**
 * The viewer in Debian's Chromium (apt-get install chromium), one launch for the file: the page
 * opened from file://, every request that is not file: or data: refused and failing the test.
 * Screenshots go to test/.artifacts/viewer/ (gitignored; CI keeps them as artifacts).
 */
const artifacts = join(import.meta.dirname, '..', '.artifacts', 'viewer');
const ENTRY = 'cancel.late-response-silent memory reordered';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let url: string;
let realUrl: string;
/** A page `check -- <command> --html` wrote: a real process campaign's finding (the work fixture's own progress token). */
let processUrl: string;
let processEvents: number;
let steps: number;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`viewer browser test: no Chromium at ${CHROMIUM_PATH}; install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH`);
  mkdirSync(artifacts, { recursive: true });
  const sdk = await defaultSdk();
  const entry = loadBaselines(sdk.name, sdk.version)
    .flatMap((b) => b.entries)
    .find((e) => entryKey(e) === ENTRY)!;
  const report = replayFile(entry.invariant, entry.counterexample, sdk) as unknown as Record<string, unknown>;
  const data = await viewerData(report, { sdk });
  steps = data.runs[data.findings[0]!.runs.shrunk]!.steps.length - 1;
  const file = join(artifacts, 'late-response.html');
  writeFileSync(file, viewerHtml(report, data));
  url = pathToFileURL(file).href;
  // The same trace as a real-time (black-box) report would carry it.
  const run = data.runs[data.findings[0]!.runs.shrunk]!;
  const realReport = { kind: 'fuzz', clock: 'real', findings: [{ invariant: entry.invariant, message: 'recorded', events: run.events }] };
  const realFile = join(artifacts, 'real-time.html');
  writeFileSync(realFile, viewerHtml(realReport, await viewerData(realReport, { sdk })));
  realUrl = pathToFileURL(realFile).href;
  const fixture = join(import.meta.dirname, '..', 'target', 'fixtures', 'workServer.mjs');
  const processFile = join(artifacts, 'process.html');
  const json = join(artifacts, 'process.json');
  const made = await runMain(['check', '--runs', '3', '--rate-runs', '1', '--parallel', '1', '--json', json, '--html', processFile, '--out', join(artifacts, 'repro'), '--', process.execPath, fixture, '--fault', 'progress-own-token']);
  if (made.code !== 1) throw new Error(`the process campaign did not find the fixture's fault (exit ${made.code}):\n${made.stderr}`);
  const finding = (JSON.parse(readFileSync(json, 'utf8')) as { findings: { invariant: string; trace: unknown[] }[] }).findings.find((f) => f.invariant === 'progress.token-requested')!;
  processEvents = finding.trace.length;
  processUrl = pathToFileURL(processFile).href;
  browser = await openBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
});

afterAll(async () => {
  await browser?.close();
  expect(browser?.refused ?? []).toEqual([]);
  expect(pageErrors).toEqual([]);
});

const stepLabel = () => page.locator('#step-label').textContent();
const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

describe('the viewer in Chromium (file://, no network)', () => {
  it('opens with the banner: invariant, level, spec section and the sentence of why', async () => {
    await page.goto(url);
    const banner = page.locator('#banner');
    await expect(banner.locator('h2').textContent()).resolves.toMatch(/cancel\.late-response-silent\s*SHOULD/);
    await expect(banner.textContent()).resolves.toMatch(/Spec: basic\/utilities\/cancellation/);
    await expect(banner.locator('.why').textContent()).resolves.toMatch(/after the cancel of c1/);
    await shot('banner');
  });

  it('steps with the keys: → and ← move one step, End to the last; the address follows', async () => {
    await page.goto(url);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(stepLabel()).resolves.toBe(`step 2 / ${steps}`);
    await page.keyboard.press('ArrowLeft');
    await expect(stepLabel()).resolves.toBe(`step 1 / ${steps}`);
    await page.keyboard.press('End');
    await expect(stepLabel()).resolves.toBe(`step ${steps} / ${steps}`);
    expect(new URL(page.url()).hash).toBe(`#finding=cancel.late-response-silent&step=${steps}`);
  });

  it('marks what changed: the step where the timeout fires shows c1 cancelled (was pending) and _responseHandlers emptied', async () => {
    await page.goto(url);
    for (let k = 0; k < steps; k++) {
      const info = (await page.locator('#step-info').textContent()) ?? '';
      if (/chose timer timeoutHandler/.test(info)) break;
      await page.keyboard.press('ArrowRight');
    }
    const changed = await page.locator('#state td.changed').allTextContents();
    expect(changed).toContain('cancelled (was pending)');
    expect(changed.some((c) => /^∅ \(was 1\)$/.test(c))).toBe(true);
    await shot('state-diff');
  });

  it('filters by kind: only deliveries are left in the lanes and the table', async () => {
    await page.goto(url);
    const all = await page.locator('#lanes button.event').count();
    await page.selectOption('#filter-kind', 'deliver');
    const left = await page.locator('#lanes button.event').allTextContents();
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(all);
    for (const text of left) expect(text).toMatch(/^deliver /);
    await expect(page.locator('#lanes h2').textContent()).resolves.toBe(`Lanes (${left.length} of ${all} events)`);
  });

  it('opens a deep link at its step', async () => {
    await page.goto(`${url}#finding=cancel.late-response-silent&step=5`);
    await expect(stepLabel()).resolves.toBe(`step 5 / ${steps}`);
    await expect(page.locator('#scrubber').inputValue()).resolves.toBe('5');
  });

  it('works by keyboard only: Tab to "next →" and Enter steps; Tab to an event and Enter shows its payload', async () => {
    await page.goto(url);
    for (let k = 0; k < 40 && (await page.evaluate(() => document.activeElement?.id)) !== 'next'; k++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(stepLabel()).resolves.toBe(`step 1 / ${steps}`);
    for (let k = 0; k < 60 && !(await page.evaluate(() => document.activeElement?.classList.contains('event'))); k++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.locator('#inspector pre').textContent()).resolves.toMatch(/"kind": "/);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('event'))).toBe(true);
    await shot('keyboard');
  });

  it('the Content-Security-Policy refuses a request the page would make (fetch), before the network', async () => {
    await page.goto(url);
    const outcome = await page.evaluate(async () => {
      const violated: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violated.push(e.effectiveDirective));
      try {
        await fetch('https://example.com/');
        return 'fetched';
      } catch (error) {
        await new Promise((r) => setTimeout(r, 50));
        return `refused: ${(error as Error).name} by ${violated.join()}`;
      }
    });
    expect(outcome).toBe('refused: TypeError by connect-src');
    expect(browser.refused).toEqual([]);
    pageErrors.splice(0); // the CSP violation is logged as a console error: expected here
  });

  it('a real-time page says "black box, real time", labels its times real ms, and says what it cannot show', async () => {
    await page.goto(`${realUrl}#finding=cancel.late-response-silent&step=5`);
    await expect(page.locator('#clock').textContent()).resolves.toMatch(/^black box, real time/);
    await expect(page.locator('#lanes').textContent()).resolves.toContain('clock, ms (real)');
    await expect(page.locator('#step-info').textContent()).resolves.toMatch(/There is no scheduler, so no choice, no enabled actions and no tape/);
    await shot('real-time');
  });

  it("a process finding's page (check -- <command> --html): one step per recorded event, the header's time the lanes', no scheduler, no empty state", async () => {
    await page.goto(`${processUrl}#finding=progress.token-requested&step=0`);
    // Every recorded event is a step of its own: the count is the trace's.
    expect(processEvents).toBeGreaterThan(5);
    await expect(stepLabel()).resolves.toBe(`step 0 / ${processEvents}`);
    await expect(page.locator('#step-info').textContent()).resolves.toMatch(/^Before the first of the \d+ events recorded/);
    // Step through every event: the header names the event and the time the lanes show at its band.
    let last = -Infinity;
    for (let k = 1; k <= processEvents; k++) {
      await page.locator('#next').click();
      await expect(stepLabel()).resolves.toBe(`step ${k} / ${processEvents}`);
      const info = (await page.locator('#step-info').textContent())!;
      const t = Number(/^Event \d+ of \d+ at t=([\d.]+) ms \(real\)/.exec(info)?.[1]);
      const band = await page.locator('#lanes g.ev.current text.time').allTextContents();
      expect(band, info).toEqual([`t=${t}`]);
      expect(t, 'events in the order of their real times').toBeGreaterThanOrEqual(last);
      last = t;
      expect(info).not.toMatch(/scheduler chose|choice \d/);
      const state = (await page.locator('#state').textContent())!;
      expect(state).not.toMatch(/undefined/);
      // The caller / handler column holds a value in every row: the caller's promise, or "not seen" for a handler inside the server.
      for (const cell of await page.locator('#state table tbody tr td:nth-child(6)').allTextContents()) expect(cell.trim()).not.toBe('');
    }
    await expect(page.locator('#state').textContent()).resolves.toMatch(/settled: result/);
    await expect(page.locator('#compare').textContent()).resolves.toMatch(/no scheduler and no tape/);
    await shot('process-finding');
  });

  it('#finding= of a finding the page does not hold says so on the banner, above the finding shown', async () => {
    await page.goto(`${processUrl}#finding=1`);
    await expect(page.locator('#banner .notice').textContent()).resolves.toBe('#finding=1: this page has no such finding (it has 1: 0 progress.token-requested); showing progress.token-requested.');
    await page.goto(`${processUrl}#finding=0&step=2`);
    await expect(page.locator('#banner .notice').count()).resolves.toBe(0);
    await expect(stepLabel()).resolves.toBe(`step 2 / ${processEvents}`);
  });

  it('axe-core finds no accessibility violation', async () => {
    await page.goto(`${url}#finding=cancel.late-response-silent&step=6`);
    // Through the DevTools protocol: the page's CSP would refuse an injected <script>.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (c: Document) => Promise<{ passes: unknown[]; violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
      const result = await axe.run(document);
      return { passes: result.passes.length, violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) };
    });
    expect(violations.violations).toEqual([]);
    expect(violations.passes).toBeGreaterThan(10);
  });
});
