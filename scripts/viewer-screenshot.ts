// `npm run viewer:screenshot -- REPORT.json|PAGE.html OUT.png [#finding=…&step=…]`: a PNG of the
// trace viewer (the README's picture). A JSON report or replay file is turned into a page first
// (as `mcp-sim view` does), in a temporary folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeViewer } from '../src/cli/view.ts';
import { openBrowser } from './viewerBrowser.ts';

const [input, out, hash = ''] = process.argv.slice(2);
if (!input || !out) {
  console.error('usage: npm run viewer:screenshot -- REPORT.json|PAGE.html OUT.png [#finding=ID&step=N]');
  process.exit(2);
}
const temp = mkdtempSync(join(tmpdir(), 'mcp-sim-shot-'));
try {
  let page = resolve(input);
  if (!input.endsWith('.html')) {
    page = join(temp, 'viewer.html');
    await writeViewer(JSON.parse(readFileSync(input, 'utf8')), page, { source: input });
  }
  // Tall enough for the banner, the step and the lanes of a short race.
  const b = await openBrowser({ width: 1280, height: 1120 });
  try {
    const tab = await b.context.newPage();
    await tab.goto(pathToFileURL(page).href + hash);
    await tab.waitForSelector('#banner h2');
    await tab.screenshot({ path: out, fullPage: false });
    if (b.refused.length) throw new Error(`the page asked the network for ${b.refused.join(', ')}`);
  } finally {
    await b.close();
  }
  console.log(`viewer:screenshot: wrote ${out}`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}
