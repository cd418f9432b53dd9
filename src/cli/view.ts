import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CaseRunner } from '../report/html/viewerData.ts';
import { SDK_OPTION_HELP } from './sdkOption.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import type { FuzzCase } from '../workload/index.ts';
import { messageOf } from '../util/errors.ts';

type Json = Record<string, any>;

/** The SDK a report names (`sdk`, a replay file's `madeWith.sdk`), when it names one. */
const sdkOf = (r: Json): { name: string; version: string } | undefined => r.sdk ?? r.madeWith?.sdk ?? r.target?.sdk;

/** What `writeViewer` did, for the line it prints and the timing the docs give. */
export interface ViewerWritten {
  readonly file: string;
  readonly findings: number;
  readonly bytes: number;
  readonly ms: number;
}

/**
 * Writes the HTML viewer of `report` (a parsed report or replay file) to `out`. A fuzz report's
 * cases run against `fuzzModule` (loaded again, with `config`); every other case runs on the
 * installed SDK (or `--sdk`'s), which must be the one the report names.
 */
export async function writeViewer(report: Json, out: string, options: { readonly source?: string; readonly fuzzModule?: string; readonly config?: Record<string, unknown> } = {}): Promise<ViewerWritten> {
  const started = performance.now();
  // Imported here, not at the top: main.ts registers `view` and `--html` for every command, and
  // `--version` / `--help` must not load the SDK, the campaign or the page template.
  const [{ runFuzzCase }, { loadTarget }, { viewerHtml }, { viewerData }, { defaultSdk }] = await Promise.all([
    import('../fuzz/fuzzCampaign.ts'),
    import('../targets/module/loadModule.ts'),
    import('../report/html/viewerHtml.ts'),
    import('../report/html/viewerData.ts'),
    import('../sdk/load.ts'),
  ]);
  let runner: CaseRunner | undefined;
  const sdk = await defaultSdk();
  // A module's report or replay file: its cases run on the module, loaded again with its config.
  const moduleFile = report.schemaVersion === 2 && report.target?.kind === 'module';
  const moduleReport = report.kind === 'campaign' && report.target?.kind === 'module';
  const fuzzModule = report.kind === 'fuzz' ? (options.fuzzModule ?? report.module ?? report.target?.label) : moduleFile ? (report.target.module as string) : moduleReport ? (report.target.spec.module as string) : undefined;
  const config = options.config ?? (moduleFile ? report.target.config : moduleReport ? report.target.spec.config : undefined);
  if (fuzzModule !== undefined) {
    const target = await loadTarget(fuzzModule, { ...(config && { config }) });
    runner = (c) => (observe) => runFuzzCase(target, c as FuzzCase, observe);
  } else {
    const named = sdkOf(report);
    if (named && (named.name !== sdk.name || named.version !== sdk.version)) {
      throw new Error(`view: ${options.source ?? 'the report'} was made with ${named.name}@${named.version}, but ${sdk.name}@${sdk.version} would run its cases; add --sdk ${named.version} (or run with the SDK that made it)`);
    }
  }
  const data = await viewerData(report, { sdk, ...(runner && { runner }), ...(options.source && { source: options.source }) });
  const html = viewerHtml(report, data);
  writeFileAtomic(out, html, { mkdir: true });
  return { file: out, findings: data.findings.length, bytes: Buffer.byteLength(html), ms: performance.now() - started };
}

/** Whether `file` is a replay file of a module's case (its page is drawn from the file itself). */
function isModuleFile(file: string): boolean {
  try {
    const j = JSON.parse(readFileSync(file, 'utf8')) as Json;
    return j.schemaVersion === 2 && j.target?.kind === 'module';
  } catch {
    return false;
  }
}

const said = (w: ViewerWritten) =>
  `html: ${w.file} (${w.findings} finding${w.findings === 1 ? '' : 's'}, ${(w.bytes / 1024).toFixed(0)} KB, made in ${w.ms.toFixed(0)} ms${w.findings > 1 ? `, ${(w.ms / w.findings).toFixed(0)} ms per finding` : ''})`;

/** The page `view` writes for FILE when no `-o` is given: FILE with `.html` for its extension. */
export const defaultHtmlPath = (file: string) => file.replace(/\.json$/i, '') + '.html';

/** `mcp-sim view FILE [-o OUT]`: the viewer of a saved report or replay file; `--extract` prints the report a page embeds. */
export function addViewCommand(program: Command, done: (code: number) => void): void {
  program
    .command('view <file>')
    .description('turn a saved --json report (check, replay, explore, fuzz) or a replay file into one self-contained HTML page: lanes, step-through, state, the three cases side by side')
    .option('-o, --out <file>', 'the HTML file to write (default: FILE with .html for .json)')
    .option('--extract', 'FILE is a page mcp-sim wrote: print the report it embeds (JSON) instead')
    .option('--sdk <version|path>', SDK_OPTION_HELP)
    .action(async (file: string, opts: { out?: string; extract?: boolean }) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        throw new Error(`view: cannot read ${file}: ${messageOf(error)}; give a report written with --json FILE or a replay file`);
      }
      if (opts.extract) {
        const { extractReport } = await import('../report/html/viewerHtml.ts');
        process.stdout.write(`${JSON.stringify(extractReport(text), null, 2)}\n`);
        return done(0);
      }
      let report: Json;
      try {
        report = JSON.parse(text) as Json;
      } catch (error) {
        throw new Error(`view: ${file} is not JSON (${messageOf(error)}); give a report written with --json FILE or a replay file (an HTML page: add --extract)`);
      }
      console.log(said(await writeViewer(report, opts.out ?? defaultHtmlPath(file), { source: file })));
      done(0);
    });
}

/**
 * `--html FILE` on a command that writes a `--json` report: the report goes to a temporary file
 * when `--json` is not given, and once the command is done its page is written from it.
 */
export function addHtmlOption(command: Command): Command {
  let temp: string | undefined;
  return command
    .option('--html <file>', 'also write the report as one self-contained HTML page (the trace viewer; see docs/viewer.md)')
    .hook('preAction', (cmd) => {
      const opts = cmd.opts() as { html?: string; json?: string; replay?: string; dryRun?: boolean };
      if (opts.html === undefined || opts.dryRun) return;
      if (opts.json === '-') throw new Error('--html reads the JSON report: give --json a file, not -, or leave --json out');
      if (opts.json === undefined && opts.replay === undefined) {
        temp = mkdtempSync(join(tmpdir(), 'mcp-sim-html-'));
        cmd.setOptionValue('json', join(temp, 'report.json'));
      }
    })
    .hook('postAction', async (cmd) => {
      const opts = cmd.opts() as { html?: string; json?: string; replay?: string; config?: string; dryRun?: boolean };
      if (opts.html === undefined || opts.dryRun) return;
      try {
        // `fuzz --replay FILE` and `replay MODULE_FILE` write no report: their page is the replay file's.
        const from = cmd.name() === 'fuzz' && opts.replay !== undefined ? opts.replay : cmd.name() === 'replay' && cmd.args[0] !== undefined && isModuleFile(cmd.args[0]) ? cmd.args[0] : opts.json;
        let report: Json;
        try {
          report = JSON.parse(readFileSync(from!, 'utf8')) as Json;
        } catch {
          process.stderr.write(`--html: no report to draw (the command wrote none to ${from}); nothing written\n`);
          return;
        }
        const config = opts.config === undefined ? undefined : (JSON.parse(opts.config.trim().startsWith('{') ? opts.config : readFileSync(opts.config, 'utf8')) as Record<string, unknown>);
        console.log(said(await writeViewer(report, opts.html, { ...(cmd.name() === 'fuzz' && { fuzzModule: cmd.args[0]! }), ...(config && { config }) })));
      } finally {
        if (temp) rmSync(temp, { recursive: true, force: true });
        temp = undefined;
      }
    });
}
