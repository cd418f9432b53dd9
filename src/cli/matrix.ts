import { dirname, relative, resolve } from 'node:path';
import pc from 'picocolors';
import { causeMatrix, type MatrixCampaign, type MatrixRelease } from '../matrix/causeMatrix.ts';
import { heatMapSpec } from '../matrix/heatMap.ts';
import { matrixJson } from '../matrix/matrixJson.ts';
import { writeMatrixReplayFiles } from '../matrix/matrixReplayFiles.ts';
import { columnLabels, matrixMarkdown } from '../matrix/matrixTable.ts';
import { renderVegaLite } from '../report/vegaChart.ts';
import { loadChosenSdk, parseSdkChoice } from '../sdk/install.ts';
import type { SdkAdapter } from '../sdk/index.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import { JSON_TO_STDOUT } from './check.ts';

/**
 * A release named as `--sdk` names one (version, folder, `installed`), loaded once when first
 * asked for: a version is installed into mcp-sim's cache then. A bad name is refused at once
 * (exit 2); an install or load that fails is the release's column, with the reason.
 */
export function releaseOf(choice: string, onInstall: (message: string) => void): MatrixRelease {
  const parsed = parseSdkChoice(choice);
  let loaded: Promise<SdkAdapter> | undefined;
  return {
    choice,
    load: () => (loaded ??= loadChosenSdk(parsed, { onInstall })),
  };
}

/** What `matrix` writes besides the table it prints. */
export interface MatrixOutputs {
  readonly markdown?: string;
  readonly json?: string;
  readonly chart?: string;
  readonly out: string;
}

const stderr = (line: string) => void process.stderr.write(`${line}\n`);

/**
 * `mcp-sim matrix --sdk A,B,…`: the same campaign (seed, runs, workload) on each release, one
 * row per cause (invariant, clause, transport variant, shape of the minimal case), one column
 * per release: runs broken, linked to the minimal counterexample on that release. A release that
 * cannot be driven is a column with the reason. Exit 0: a table is a measurement, not a verdict
 * (use check on the release you pin); 2 on bad usage.
 */
export async function matrixCommand(list: string, campaign: MatrixCampaign, outputs: MatrixOutputs): Promise<number> {
  const choices = list.split(',').map((x) => x.trim()).filter(Boolean);
  if (choices.length === 0) throw new Error('matrix: --sdk needs at least one release (versions or folders, comma-separated)');
  const releases = choices.map((c) => releaseOf(c, stderr));
  console.log(pc.bold(`mcp-sim matrix  seed=${campaign.seed}`));
  console.log(`  runs          ${campaign.runs} cases per release (a release without a profile runs only the cases of the others)`);
  console.log(`  profiles      ${campaign.workload.profiles.join(',')} (a release runs those it offers)`);
  console.log(`  releases      ${choices.join(', ')}`);
  const started = Date.now();
  const columns = await causeMatrix(releases, campaign, {
    onStart: (i, n, choice) => stderr(`release ${i} of ${n}: ${choice}…`),
    onRelease: ({ position, total, column: c }) =>
      stderr(
        c.status === 'ran'
          ? `release ${position} of ${total}: ${c.sdk.name}@${c.sdk.version}: ${c.runs} runs and ${c.causes.length} causes shrunk in ${(c.wallMs / 1000).toFixed(1)} s (${Math.round(c.runs / (c.wallMs / 1000))} runs/s, shrinking included)`
          : `release ${position} of ${total}: ${c.choice} cannot be driven: ${c.reason}`,
      ),
  });
  const files = writeMatrixReplayFiles(columns, campaign, outputs.out);
  const header = { seed: campaign.seed, runs: campaign.runs, profiles: campaign.workload.profiles };
  console.log('');
  console.log(matrixMarkdown(columns, header, files));
  console.log('');
  console.log(`Counterexamples: ${outputs.out}/ (replay one with npx mcp-sim replay FILE --sdk <its release>)`);
  if (outputs.markdown) {
    const base = dirname(resolve(outputs.markdown));
    const link = (file: string) => relative(base, resolve(file)).split('\\').join('/');
    writeFileAtomic(outputs.markdown, matrixMarkdown(columns, header, files, link) + '\n', { mkdir: true });
  }
  if (outputs.json) {
    const text = JSON.stringify(matrixJson(columns, campaign, files), null, 2) + '\n';
    if (outputs.json === JSON_TO_STDOUT) process.stdout.write(text);
    else writeFileAtomic(outputs.json, text, { mkdir: true });
  }
  if (outputs.chart) {
    const spec = heatMapSpec(columns, `mcp-sim matrix: seed ${campaign.seed}, ${campaign.runs} runs per release (${columnLabels(columns).length} releases)`);
    const specFile = outputs.chart.replace(/\.svg$/i, '') + '.vl.json';
    writeFileAtomic(specFile, JSON.stringify(spec, null, 2) + '\n', { mkdir: true });
    const rendered = await renderVegaLite(spec);
    if ('svg' in rendered) writeFileAtomic(outputs.chart, rendered.svg, { mkdir: true });
    else console.log(pc.yellow(`chart: wrote the Vega-Lite spec ${specFile}; no SVG: ${rendered.unavailable}`));
  }
  console.log(`matrix: ${columns.length} releases in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return 0;
}
