// `npm run build:viewer`: bundles the viewer's page (src/report/html/page/) with esbuild into one
// HTML template, src/report/html/viewer.template.html, committed; the CLI fills in the report.
// Its script and style are inline, allowed by their hashes in the page's Content-Security-Policy,
// which forbids everything else (no request of any kind). test/report/viewerTemplate.test.ts
// proves the committed template is what this script builds from the sources.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = join(root, 'src/report/html/page');
export const TEMPLATE_PATH = join(root, 'src/report/html/viewer.template.html');

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The template's text, built from the page's sources (deterministic for one esbuild version). */
export async function viewerTemplate() {
  const bundled = await build({
    entryPoints: [join(page, 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0].text.trim();
  const style = readFileSync(join(page, 'style.css'), 'utf8').trim();
  if (/<\/(script|style)/i.test(script + style)) throw new Error('build-viewer: the bundle contains a closing </script> or </style> tag');
  const csp = ["default-src 'none'", `script-src ${sha256(script)}`, `style-src ${sha256(style)}`, 'img-src data:', "base-uri 'none'", "form-action 'none'"].join('; ');
  const shell = readFileSync(join(page, 'shell.html'), 'utf8');
  return shell.split('__CSP__').join(csp).split('__STYLE__').join(style).split('__SCRIPT__').join(script);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(TEMPLATE_PATH, await viewerTemplate());
  console.log(`build-viewer: wrote ${TEMPLATE_PATH.slice(root.length + 1)}`);
}
