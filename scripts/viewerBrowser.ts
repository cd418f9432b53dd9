// The viewer in a real browser: Debian's Chromium (apt-get install chromium) driven by
// playwright-core, which never downloads a browser. Shared by the browser test
// (test/report/viewerBrowser.test.ts) and `npm run viewer:screenshot`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where the browser is: Debian's package, or `CHROMIUM_PATH`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A headless Chromium with a fresh profile, nothing in the background, and every request not to file: or data: refused (and remembered). */
export async function openBrowser(viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; refused: string[]; close: () => Promise<void> }> {
  // A fresh profile (playwright passes it as --user-data-dir), removed on close.
  const profile = mkdtempSync(join(tmpdir(), 'mcp-sim-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
    serviceWorkers: 'block',
  });
  const refused: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    refused.push(url);
    return route.abort();
  });
  return {
    context,
    refused,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
