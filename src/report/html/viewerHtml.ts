import { readFileSync } from 'node:fs';
import type { ViewerData } from './viewerTypes.ts';

/** The bundled page (`npm run build:viewer`), next to this module in src/ and in dist/. */
const TEMPLATE_URL = new URL('./viewer.template.html', import.meta.url);

/**
 * Wall-clock fields of reports: removed from the page's copy of the report (set to null) so that
 * the same seed gives the same bytes; the JSON report itself keeps them.
 */
export const WALL_CLOCK_FIELDS: readonly string[] = ['durationMs', 'wallMs', 'runWallMs', 'ms', 'runsPerSecond'];

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** JSON safe inside a `<script>` element: no `</script>`, no `<!--`, no line separators a parser could trip on. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function withoutWallClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutWallClock);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, WALL_CLOCK_FIELDS.includes(k) && typeof v === 'number' ? null : withoutWallClock(v)]));
}

/**
 * One self-contained HTML page: the viewer's script and style inline, `report` (with its
 * `viewer` data) embedded as JSON in `<script type="application/json" id="mcp-sim-report">`, a
 * Content-Security-Policy that allows no request. A function of its input: no time, no random id.
 */
export function viewerHtml(report: Record<string, unknown>, viewer: ViewerData): string {
  const template = readFileSync(TEMPLATE_URL, 'utf8');
  const embedded = { ...(withoutWallClock(report) as Record<string, unknown>), viewer };
  return template
    .split('__MCP_SIM_TITLE__')
    .join(escapeHtml(viewer.title))
    .split('__MCP_SIM_SUBTITLE__')
    .join(escapeHtml(viewer.subtitle))
    .split('__MCP_SIM_EFFICIENCY__')
    .join(`${viewer.efficiency ? `<p class="efficiency">${escapeHtml(viewer.efficiency)}</p>` : ''}${(viewer.toolCounts ?? []).map((l) => `<p class="efficiency">${escapeHtml(l)}</p>`).join('')}`)
    .split('__MCP_SIM_REPORT__')
    .join(scriptJson(embedded));
}

/** The report embedded in a page `viewerHtml` wrote (with its `viewer` field). */
export function extractReport(html: string): Record<string, unknown> {
  const m = /<script type="application\/json" id="mcp-sim-report">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('view --extract: the file has no <script type="application/json" id="mcp-sim-report">; give a page that mcp-sim wrote with --html or view');
  return JSON.parse(m[1]!) as Record<string, unknown>;
}
