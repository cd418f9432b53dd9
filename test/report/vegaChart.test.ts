import { describe, expect, it } from 'vitest';
import { renderVegaLite } from '../../src/report/vegaChart.ts';

const spec = { data: { values: [{ a: 'x', b: 1 }] }, mark: 'bar', encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } } };

describe('renderVegaLite: the SVG of a spec, or one line saying why not', () => {
  it('renders with the devDependencies installed', async () => {
    const out = await renderVegaLite(spec);
    expect('svg' in out && out.svg.startsWith('<svg')).toBe(true);
  });

  it('says so when vega cannot be imported (an installed mcp-sim without its devDependencies)', async () => {
    const out = await renderVegaLite(spec, () => Promise.reject(new Error("Cannot find package 'vega'")));
    expect(out).toEqual({ unavailable: expect.stringMatching(/^vega and vega-lite are not installed .*npm i -D vega vega-lite/) });
  });
});
