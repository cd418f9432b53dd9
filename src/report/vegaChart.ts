/**
 * Renders a Vega-Lite spec to SVG, for the benchmarks' charts and the version matrix's heat map.
 *
 * Why Vega-Lite: a declarative spec (data, encodings, scales) renders headlessly in Node through
 * Vega's SVG string renderer: no canvas, no browser, no fonts to install, and the same data
 * always gives the same SVG. vega and vega-lite are devDependencies: a clone has them, an
 * installed mcp-sim may not, so they are imported when asked for and their absence is an answer,
 * not a crash (the spec itself is plain JSON that any Vega-Lite viewer renders).
 */

/** A Vega-Lite spec as plain JSON (typed loosely here so that the package's types need no vega-lite). */
export type VegaLiteSpec = Readonly<Record<string, unknown>>;

/** Vega and Vega-Lite, imported when a chart is asked for. */
type VegaModules = readonly [typeof import('vega'), typeof import('vega-lite')];
const importVega = (): Promise<VegaModules> => Promise.all([import('vega'), import('vega-lite')]);

/** The SVG of `spec`, or why it cannot be rendered here (vega or vega-lite not installed; `load` is replaced in tests). */
export async function renderVegaLite(spec: VegaLiteSpec, load: () => Promise<VegaModules> = importVega): Promise<{ readonly svg: string } | { readonly unavailable: string }> {
  let vega: VegaModules[0];
  let vegaLite: VegaModules[1];
  try {
    [vega, vegaLite] = await load();
  } catch {
    return { unavailable: 'vega and vega-lite are not installed (devDependencies of mcp-sim): npm i -D vega vega-lite to render it' };
  }
  const compiled = vegaLite.compile(spec as unknown as import('vega-lite').TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return { svg: await view.toSVG() };
  } finally {
    view.finalize();
  }
}
