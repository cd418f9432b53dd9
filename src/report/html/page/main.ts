/**
 * The trace viewer's page: reads the report embedded in `#mcp-sim-report` and draws, for the
 * chosen finding and step, the banner, the lanes, the request lifecycles, the state with what
 * changed, the payload of the chosen event, the three cases side by side, the replay commands
 * and a campaign's coverage. No network, no storage: the URL's hash is the only state kept.
 */
import type { ViewerData, ViewerEvent, ViewerFinding, ViewerMaps, ViewerRequest, ViewerRun, ViewerTimer } from '../viewerTypes.ts';
import { fill, h, s } from './dom.ts';
import { describe, directionOf, laneOf, lifecycleMark, methodOf, requestIdOf } from './frames.ts';

const report = JSON.parse(document.getElementById('mcp-sim-report')!.textContent!) as { viewer?: ViewerData };
const data = report.viewer;

interface ViewState {
  finding: number;
  /** What the address asked for and the page could not show (a finding it does not hold), said on the banner. */
  notice: string | undefined;
  step: number;
  selected: number | undefined;
  filters: { request: string; method: string; direction: string; kind: string };
}
const state: ViewState = { finding: 0, notice: undefined, step: 0, selected: undefined, filters: { request: '', method: '', direction: '', kind: '' } };

const finding = (): ViewerFinding => data!.findings[state.finding]!;
const runOf = (k: number): ViewerRun => data!.runs[k]!;
const run = (): ViewerRun => runOf(finding().runs.shrunk);

/** The state after step `k`: a step leaves out what did not change since the one before. */
interface StepState {
  readonly step: number;
  readonly requests: readonly ViewerRequest[];
  readonly maps: ViewerMaps | undefined;
  readonly timers: readonly ViewerTimer[] | undefined;
}
function stateAt(r: ViewerRun, k: number): StepState {
  let requests: readonly ViewerRequest[] | undefined;
  let maps: ViewerMaps | undefined;
  let timers: readonly ViewerTimer[] | undefined;
  for (let j = k; j >= 0 && (!requests || !maps || !timers); j--) {
    const st = r.steps[j]!;
    requests ??= st.requests;
    maps ??= st.maps;
    timers ??= st.timers;
  }
  return { step: k, requests: requests ?? [], maps, timers };
}
const real = () => data!.clock === 'real';
const unit = () => (real() ? 'ms (real)' : 'ms (virtual)');

// ── deep links ──────────────────────────────────────────────────────────────────────────────

/**
 * `#finding=` names a finding by its id, or by its index (0 is the first); one the page does not
 * hold is said on the banner, above the finding shown instead, never shown silently as another.
 */
function findingOf(wanted: string): number | undefined {
  const k = data!.findings.findIndex((f) => f.id === wanted);
  if (k >= 0) return k;
  return /^\d+$/.test(wanted) && Number(wanted) < data!.findings.length ? Number(wanted) : undefined;
}

function readHash(): void {
  const params = new URLSearchParams(location.hash.slice(1));
  const wanted = params.get('finding');
  const k = wanted === null ? undefined : findingOf(wanted);
  if (k !== undefined) state.finding = k;
  const n = data!.findings.length;
  state.notice =
    wanted !== null && k === undefined
      ? `#finding=${wanted}: this page has no such finding (it has ${n}: ${data!.findings.map((f, j) => `${j} ${f.id}`).join(', ')}); showing ${finding().id}.`
      : undefined;
  const step = Number(params.get('step'));
  state.step = Number.isInteger(step) ? Math.max(0, Math.min(step, run().steps.length - 1)) : 0;
}

function writeHash(): void {
  const hash = `#finding=${encodeURIComponent(finding().id)}&step=${state.step}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

// ── filters ─────────────────────────────────────────────────────────────────────────────────

function visible(e: ViewerEvent): boolean {
  const f = state.filters;
  if (f.kind && e.kind !== f.kind) return false;
  if (f.direction && directionOf(e) !== f.direction) return false;
  if (f.method && methodOf(e) !== f.method) return false;
  if (f.request && requestIdOf(e) !== f.request && e.call !== f.request) return false;
  return true;
}

function select(label: string, key: keyof ViewState['filters'], values: readonly string[]): HTMLElement {
  const id = `filter-${key}`;
  return h(
    'div',
    { class: 'filter' },
    h('label', { for: id }, label),
    h(
      'select',
      {
        id,
        onchange: (e: Event) => {
          state.filters[key] = (e.target as HTMLSelectElement).value;
          renderTrace();
        },
      },
      h('option', { value: '' }, 'all'),
      values.map((v) => h('option', { value: v, selected: state.filters[key] === v }, v)),
    ),
  );
}

function renderFilters(): void {
  const events = run().events;
  const uniq = (xs: (string | undefined)[]) => [...new Set(xs.filter((x): x is string => x !== undefined))].sort();
  const requests = uniq([...events.map(requestIdOf), ...events.map((e) => e.call as string | undefined)]);
  fill(
    'filters',
    h('h2', {}, 'Filters'),
    h('div', { class: 'filter-row' }, select('Request', 'request', requests), select('Method', 'method', uniq(events.map(methodOf))), select('Direction', 'direction', ['client→server', 'server→client']), select('Kind', 'kind', uniq(events.map((e) => e.kind)))),
  );
}

// ── banner, findings, steps ─────────────────────────────────────────────────────────────────

function renderFindings(): void {
  document.getElementById('findings')!.hidden = data!.findings.length < 2;
  fill(
    'findings',
    h('h2', {}, `Findings (${data!.findings.length})`),
    h(
      'ul',
      { class: 'finding-list' },
      data!.findings.map((f, k) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              'aria-current': k === state.finding ? 'true' : undefined,
              'data-finding': k,
              onclick: () => {
                state.finding = k;
                state.step = 0;
                state.selected = undefined;
                renderAll();
                document.querySelector<HTMLButtonElement>(`#findings button[data-finding="${k}"]`)?.focus();
              },
            },
            `${f.id} `,
            h('span', { class: `level level-${f.level}` }, f.level),
          ),
        ),
      ),
    ),
  );
}

function renderBanner(): void {
  const f = finding();
  fill(
    'banner',
    state.notice && h('p', { class: 'notice', role: 'alert' }, state.notice),
    h('h2', {}, h('span', { class: 'invariant' }, f.invariant), ' ', h('span', { class: `level level-${f.level}` }, f.level)),
    h('p', { class: 'why' }, f.message || 'no message'),
    h('p', { class: 'clause' }, `Spec: ${f.section}${f.clause ? `, clause ${f.clause}` : ''}. `, f.property && `Rule: ${f.property}.`),
  );
}

function renderStepper(): void {
  const steps = run().steps;
  const step = steps[state.step]!;
  const scrubber = document.getElementById('scrubber') as HTMLInputElement;
  scrubber.max = String(steps.length - 1);
  scrubber.value = String(state.step);
  scrubber.setAttribute('aria-valuetext', `step ${state.step} of ${steps.length - 1}`);
  (document.getElementById('prev') as HTMLButtonElement).disabled = state.step === 0;
  (document.getElementById('next') as HTMLButtonElement).disabled = state.step === steps.length - 1;
  document.getElementById('step-label')!.textContent = `step ${state.step} / ${steps.length - 1}`;
  if (real()) {
    // Real time: each step is one recorded event, in time order; no scheduler chose it.
    const e = run().events.find((x) => x.step === state.step);
    fill(
      'step-info',
      e
        ? h('p', {}, `Event ${state.step} of ${steps.length - 1} at t=${e.t} ${unit()}: `, h('strong', {}, describe(e)), '.')
        : h('p', {}, `Before the first of the ${steps.length - 1} events recorded (the connection opening).`),
      h('p', { class: 'absent' }, 'Real time: one step per recorded event, in the order of their times. There is no scheduler, so no choice, no enabled actions and no tape.'),
    );
    return;
  }
  const chosen =
    step.action === undefined
      ? h('p', {}, "Step 0: setup (connect and handshake), before the scheduler's first choice.")
      : h('p', {}, `Step ${step.step} at t=${step.t} ${unit()}: the scheduler chose `, h('strong', {}, step.action), ` (choice ${step.choice}${step.enabled ? ` of ${step.enabled.length} enabled` : ''}).`);
  const enabled = step.enabled
    ? h('ol', { class: 'enabled', start: 0, 'aria-label': 'Actions enabled at this step' }, step.enabled.map((a, k) => h('li', { class: k === step.choice ? 'chosen' : '' }, a, k === step.choice ? ' ← chosen' : '')))
    : h('p', { class: 'absent' }, 'The enabled actions were not recorded for this run (a real-time trace).');
  fill('step-info', chosen, step.action !== undefined && enabled);
}

function wireStepper(): void {
  document.getElementById('prev')!.addEventListener('click', () => go(state.step - 1));
  document.getElementById('next')!.addEventListener('click', () => go(state.step + 1));
  document.getElementById('scrubber')!.addEventListener('input', (e) => go(Number((e.target as HTMLInputElement).value)));
}

function go(step: number): void {
  const max = run().steps.length - 1;
  const next = Math.max(0, Math.min(step, max));
  if (next === state.step) return;
  state.step = next;
  writeHash();
  renderStep();
}

// ── lanes ───────────────────────────────────────────────────────────────────────────────────

const LANES = { client: 60, wire: 250, server: 440, clock: 600 } as const;
const ROW = 22;

function renderLanes(events: readonly ViewerEvent[]): SVGElement {
  const width = 700;
  const height = (events.length + 2) * ROW;
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': `Lanes: client, wire, server and clock, ${events.length} events` });
  svg.append(s('defs', {}, s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#333' }))));
  for (const [name, x] of Object.entries(LANES)) {
    svg.append(s('line', { x1: x, y1: ROW, x2: x, y2: height, stroke: '#bbb', 'stroke-dasharray': name === 'wire' || name === 'clock' ? '4 4' : undefined }));
    svg.append(s('text', { x, y: 14, 'text-anchor': 'middle', class: 'lane-title' }, name === 'clock' ? `clock, ${unit()}` : name));
  }
  events.forEach((e, k) => {
    const y = (k + 1.5) * ROW;
    const cls = `ev ${e.step > state.step ? 'future' : e.step === state.step ? 'current' : 'past'}${state.selected === e.i ? ' selected' : ''}`;
    const g = s('g', { class: cls, 'data-i': e.i });
    if (e.step === state.step) g.append(s('rect', { x: 0, y: y - ROW / 2, width, height: ROW, class: 'band' }));
    const text = describe(e);
    if (e.kind === 'action') {
      // A step begins: the scheduler's choice, across the lanes.
      g.append(s('rect', { x: 0, y: y - ROW / 2 + 2, width, height: ROW - 4, class: 'step-band' }));
      g.append(s('text', { x: 4, y: y + 4, class: 'step-label' }, real() ? `mcp-sim's client: ${e.action as string}` : `step ${e.step}: ${e.action as string}`));
    } else if (e.kind === 'deliver' || e.kind === 'drop') {
      const toServer = e.to === 'server';
      const x1 = toServer ? LANES.client : LANES.server;
      const x2 = e.kind === 'drop' ? LANES.wire : toServer ? LANES.server : LANES.client;
      g.append(s('line', { x1, y1: y, x2, y2: y, stroke: e.kind === 'drop' ? '#a33' : '#333', 'marker-end': 'url(#arrow)' }));
      g.append(s('text', { x: LANES.wire, y: y - 4, 'text-anchor': 'middle', class: 'label' }, text.replace(/^deliver \S+ /, '')));
    } else {
      const x = LANES[laneOf(e)];
      g.append(e.kind === 'timer' ? s('path', { d: `M${x},${y - 6} l6,6 l-6,6 l-6,-6 z`, fill: '#b35900' }) : s('circle', { cx: x, cy: y, r: 4, fill: e.kind === 'action' ? '#245' : '#555' }));
      const anchor = laneOf(e) === 'server' || laneOf(e) === 'clock' ? 'end' : 'start';
      g.append(s('text', { x: anchor === 'end' ? x - 9 : x + 9, y: y + 4, 'text-anchor': anchor, class: 'label' }, text));
    }
    g.append(s('text', { x: width - 4, y: y + 4, 'text-anchor': 'end', class: 'time' }, `t=${e.t}`));
    svg.append(g);
  });
  return svg;
}

// ── request lifecycles ──────────────────────────────────────────────────────────────────────

const OUTCOME_COLOUR: Record<string, string> = { result: '#1b6e20', timeout: '#a65500', 'max-total': '#a65500', abort: '#6a1b9a', other: '#b71c1c', open: '#555' };

/** A request's row: a caller's call, or a request some side sent without one (initialize, a server's request to the client). */
interface LifecycleRow {
  readonly label: string;
  readonly side: string;
  readonly conn: number;
  readonly id: string | undefined;
  readonly start: number;
  readonly end: number | undefined;
  readonly outcome: string;
  readonly settled?: ViewerEvent;
}

/** What the model's wire state of a request without a call says of its outcome. */
const WIRE_OUTCOME: Record<string, string> = { responded: 'result', timedOut: 'timeout', cancelled: 'abort', lateResponse: 'abort', closed: 'other' };

function lifecycleRows(r: ViewerRun): LifecycleRow[] {
  const last = stateAt(r, r.steps.length - 1);
  const rows: LifecycleRow[] = [];
  const ofCalls = new Set<string>();
  for (const c of r.events.filter((e) => e.kind === 'call-start')) {
    const call = c.call as string;
    const rec = last.requests.find((q) => q.key === call && q.role === 'requester');
    const settled = r.events.find((e) => e.kind === 'call-settle' && e.call === call);
    const id = c.id === undefined ? undefined : JSON.stringify(c.id);
    ofCalls.add(`${c.from as string}:${c.conn as number}:${id}`);
    rows.push({ label: `${call} ${c.method as string} id=${id ?? '?'}`, side: c.from as string, conn: c.conn as number, id, start: c.i, end: settled?.i, outcome: rec?.other?.startsWith('settled: ') ? rec.other.slice('settled: '.length) : 'open', ...(settled && { settled }) });
  }
  for (const e of r.events) {
    if (e.kind !== 'send' || lifecycleMark(e) !== 'request') continue;
    const id = requestIdOf(e);
    const key = `${e.from as string}:${e.conn as number}:${id}`;
    if (ofCalls.has(key)) continue;
    ofCalls.add(key);
    const rec = last.requests.find((q) => q.role === 'requester' && q.side === e.from && q.id === id && q.method === methodOf(e));
    const answer = r.events.find((x) => x.i > e.i && x.kind === 'deliver' && x.to === e.from && x.conn === e.conn && requestIdOf(x) === id && (lifecycleMark(x) === 'response' || lifecycleMark(x) === 'error'));
    rows.push({ label: `${e.from as string} ${methodOf(e)} id=${id}`, side: e.from as string, conn: e.conn as number, id, start: e.i, end: answer?.i, outcome: (rec && WIRE_OUTCOME[rec.wire]) ?? 'open' });
  }
  return rows;
}

function renderLifecycles(r: ViewerRun): HTMLElement {
  const rows = lifecycleRows(r);
  const n = r.events.length;
  const width = 900;
  // An event's place in the run (a real-time run's events are in time order, not record order).
  const place = new Map(r.events.map((e, k) => [e.i, k]));
  const x = (i: number) => 190 + ((place.get(i) ?? i) / Math.max(1, n - 1)) * (width - 210);
  const svg = s('svg', { viewBox: `0 0 ${width} ${(rows.length + 1) * 28}`, width, height: (rows.length + 1) * 28, role: 'img', 'aria-label': `One row per request: ${rows.length} requests` });
  const table: HTMLElement[] = [];
  rows.forEach((row, k) => {
    const y = (k + 1) * 28;
    svg.append(s('text', { x: 4, y: y + 4, class: 'label' }, row.label));
    svg.append(s('line', { x1: x(row.start), y1: y, x2: x(row.end ?? n - 1), y2: y, stroke: OUTCOME_COLOUR[row.outcome] ?? '#555', 'stroke-width': 6, 'stroke-linecap': 'round' }));
    const marks: string[] = [];
    for (const e of r.events) {
      const mark = lifecycleMark(e);
      if (!mark || e.conn !== row.conn || requestIdOf(e) !== row.id || (e.kind !== 'send' && e.kind !== 'deliver')) continue;
      // The request and cancel as its sender sends them; progress and the response as they reach it.
      const own = mark === 'request' || mark === 'cancel' ? e.kind === 'send' && e.from === row.side : e.kind === 'deliver' && e.to === row.side;
      if (!own) continue;
      marks.push(`${mark} at t=${e.t}`);
      svg.append(s('circle', { cx: x(e.i), cy: y, r: 6, class: `mark mark-${mark}` }));
      svg.append(s('text', { x: x(e.i), y: y - 9, 'text-anchor': 'middle', class: 'mark-label' }, mark));
    }
    if (row.settled) marks.push(`${row.settled.outcome as string} (${row.outcome}) at t=${row.settled.t}`);
    table.push(h('tr', {}, h('th', { scope: 'row' }, row.label), h('td', {}, marks.join(', ') || 'no frames'), h('td', { class: `outcome outcome-${row.outcome}` }, row.outcome)));
  });
  return h(
    'div',
    {},
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Request lifecycles' }, svg),
    h('table', { class: 'lifecycle-table' }, h('caption', {}, 'Each request: what happened, and its outcome (the colour of its row above: green result, orange timeout, purple cancelled, red other error, grey open)'), h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'request'), h('th', { scope: 'col' }, 'lifecycle'), h('th', { scope: 'col' }, 'outcome'))), h('tbody', {}, table)),
  );
}

// ── state and its diff ──────────────────────────────────────────────────────────────────────

/** A state cell, marked when it changed in this step: new, or with its value before (a cell with no value before is new). */
function changedCell(value: string, before: string | undefined, isNew: boolean): HTMLElement {
  if (before === undefined && !isNew) return h('td', {}, value);
  const changed = isNew || before !== value;
  return h('td', { class: changed ? 'changed' : '' }, value, changed ? h('span', { class: 'change-mark' }, isNew ? ' (new)' : ` (was ${before})`) : '');
}

function renderState(step: StepState, prev: StepState | undefined): void {
  const before = new Map(prev?.requests.map((q) => [`${q.role}:${q.key}`, q]) ?? []);
  const reqRows = step.requests.map((q) => {
    const old = before.get(`${q.role}:${q.key}`);
    // A receiver's handler on a real-time trace: inside the server's process, not on the wire.
    const other = q.other === undefined ? h('td', { class: 'absent' }, 'not seen') : changedCell(q.other, old?.other, !old && prev !== undefined);
    return h('tr', {}, h('th', { scope: 'row' }, q.key), h('td', {}, `${q.side} ${q.role}`), h('td', {}, q.method), h('td', {}, q.id), changedCell(q.wire, old?.wire, !old && prev !== undefined), other);
  });
  const mapRows: HTMLElement[] = [];
  for (const [side, maps] of Object.entries(step.maps ?? {})) {
    for (const [name, keys] of Object.entries(maps)) {
      const was = prev?.maps?.[side]?.[name];
      const now = keys.length ? keys.join(', ') : '∅';
      mapRows.push(h('tr', {}, h('th', { scope: 'row' }, `${side}.${name}`), changedCell(now, was === undefined ? undefined : was.length ? was.join(', ') : '∅', false)));
    }
  }
  const timers = (step.timers ?? []).map((t) => `${t.label} #${t.id} at ${t.atMs} ms`);
  const wereTimers = (prev?.timers ?? []).map((t) => `${t.label} #${t.id} at ${t.atMs} ms`);
  fill(
    'state',
    h('h2', {}, `State after ${real() ? 'event' : 'step'} ${step.step}`),
    h(
      'p',
      { class: 'hint' },
      real()
        ? "Marked cells changed in this event. Requests: the lifecycle model's machines, fed the frames on the wire; the caller is mcp-sim's own client; a handler inside the server is not seen."
        : "Marked cells changed in this step. Requests: the lifecycle model's machines; maps: the SDK's own correlation maps (request ids), read from the running SDK after the step.",
    ),
    h('table', {}, h('caption', {}, 'The model: every request'), h('thead', {}, h('tr', {}, ['request', 'who', 'method', 'id', 'wire', 'caller / handler'].map((c) => h('th', { scope: 'col' }, c)))), h('tbody', {}, reqRows.length ? reqRows : h('tr', {}, h('td', { colspan: 6 }, 'no request yet')))),
    step.maps
      ? h('table', {}, h('caption', {}, 'The SDK: correlation maps (pending responses, progress handlers, timeouts, abort controllers)'), h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'map'), h('th', { scope: 'col' }, 'keys'))), h('tbody', {}, mapRows))
      : h('p', { class: 'absent' }, 'The SDK\'s maps were not read for this run (a real-time trace shows the wire only).'),
    step.timers && h('p', {}, `Timers pending: ${timers.length ? timers.join('; ') : 'none'}`, timers.join() !== wereTimers.join() ? h('span', { class: 'changed change-mark' }, ' (changed)') : ''),
  );
}

// ── the trace table and inspector ───────────────────────────────────────────────────────────

function renderTrace(): void {
  const events = run().events.filter(visible);
  const rows = events.map((e) =>
    h(
      'tr',
      { class: `${e.step > state.step ? 'future' : e.step === state.step ? 'current' : ''}${state.selected === e.i ? ' selected' : ''}` },
      h('td', {}, `#${e.i}`),
      h('td', {}, `s${e.step}`),
      h('td', {}, `${e.t}`),
      h('td', {}, laneOf(e)),
      h(
        'td',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'event',
            'data-i': e.i,
            'aria-pressed': state.selected === e.i ? 'true' : 'false',
            onclick: () => {
              state.selected = e.i;
              renderTrace();
              renderInspector();
              document.querySelector<HTMLButtonElement>(`#lanes button.event[data-i="${e.i}"]`)?.focus();
            },
          },
          describe(e),
        ),
      ),
    ),
  );
  fill(
    'lanes',
    h('h2', {}, `Lanes (${events.length} of ${run().events.length} events)`),
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Lanes diagram' }, renderLanes(events)),
    h('h3', {}, 'The events (choose one to inspect its payload)'), h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Event table' }, h('table', { class: 'events' }, h('thead', {}, h('tr', {}, ['#', 'step', `t (${unit()})`, 'lane', 'event'].map((c) => h('th', { scope: 'col' }, c)))), h('tbody', {}, rows))),
  );
  // Keep the current step in view.
  const box = document.querySelector<HTMLElement>('#lanes .scroll');
  const first = document.querySelector<SVGGElement>('#lanes g.ev.current');
  if (box && first) box.scrollTop = Math.max(0, (first as unknown as { getBBox(): { y: number } }).getBBox().y - 3 * ROW);
  for (const g of document.querySelectorAll<SVGGElement>('#lanes g.ev')) {
    g.addEventListener('click', () => {
      state.selected = Number(g.dataset.i);
      renderTrace();
      renderInspector();
    });
  }
}

function renderInspector(): void {
  const e = state.selected === undefined ? undefined : run().events.find((x) => x.i === state.selected);
  fill(
    'inspector',
    h('h2', {}, 'Payload'),
    e ? h('p', {}, `Event #${e.i}, step ${e.step}, t=${e.t} ${unit()}: ${describe(e)}`) : h('p', {}, 'Choose an event (in the lanes, or the table) to see its payload.'),
    e && h('pre', { tabindex: 0, 'aria-label': 'Event payload' }, JSON.stringify(e, null, 2)),
  );
}

// ── cases side by side ──────────────────────────────────────────────────────────────────────

/** The steps of two runs aligned by their actions (longest common subsequence). */
function align(a: readonly string[], b: readonly string[]): [string | undefined, string | undefined][] {
  const m = a.length;
  const n = b.length;
  const L = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let i = m - 1; i >= 0; i--) for (let j = n - 1; j >= 0; j--) L[i]![j] = a[i] === b[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const out: [string | undefined, string | undefined][] = [];
  let i = 0;
  let j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && a[i] === b[j]) out.push([a[i++], b[j++]]);
    else if (j >= n || (i < m && L[i + 1]![j]! >= L[i]![j + 1]!)) out.push([a[i++], undefined]);
    else out.push([undefined, b[j++]]);
  }
  return out;
}

const actionsOf = (r: ViewerRun) => r.steps.flatMap((st) => (st.action === undefined ? [] : [st.action]));

function comparison(left: ViewerRun, right: ViewerRun): HTMLElement {
  const rows = align(actionsOf(left), actionsOf(right)).map(([a, b]) => {
    const same = a !== undefined && a === b;
    return h('tr', { class: same ? '' : 'diff' }, h('td', {}, a ?? '—'), h('td', { class: 'diff-mark' }, same ? '' : '≠'), h('td', {}, b ?? '—'));
  });
  const verdict = (r: ViewerRun) => (r.findings.length ? [...new Set(r.findings.map((f) => f.invariant))].join(', ') : 'no finding');
  return h(
    'div',
    { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': `${left.label} against ${right.label}` },
    h(
      'table',
      { class: 'compare' },
      h('caption', {}, `${left.label} (${left.steps.length - 1} steps) against ${right.label} (${right.steps.length - 1} steps); rows marked ≠ differ`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, `${left.label}: ${left.note}; ${verdict(left)}`), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'differs')), h('th', { scope: 'col' }, `${right.label}: ${right.note}; ${verdict(right)}`))),
      h('tbody', {}, rows),
    ),
  );
}

function renderCompare(): void {
  const f = finding();
  const shrunk = runOf(f.runs.shrunk);
  const original = f.runs.original === undefined ? undefined : runOf(f.runs.original);
  const counterfactual = f.runs.counterfactual === undefined ? undefined : runOf(f.runs.counterfactual);
  fill(
    'compare',
    h('h2', {}, 'Original, shrunk and counterfactual'),
    original ? comparison(original, shrunk) : null,
    counterfactual ? comparison(shrunk, counterfactual) : null,
    f.absent.length ? h('ul', { class: 'absent' }, f.absent.map((a) => h('li', {}, `Not shown: ${a}`))) : null,
  );
}

// ── commands and coverage ───────────────────────────────────────────────────────────────────

async function copy(text: string, status: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'copied';
  } catch {
    status.textContent = 'select the command and copy it (the clipboard is not available here)';
  }
}

function renderCommands(): void {
  fill(
    'commands',
    h('h2', {}, 'Replay'),
    h(
      'ul',
      { class: 'commands' },
      finding().commands.map((c) => {
        const status = h('span', { class: 'status', role: 'status' });
        return h('li', {}, h('span', {}, `${c.label}: `), h('code', {}, c.command), ' ', h('button', { type: 'button', class: 'copy', onclick: () => void copy(c.command, status) }, 'copy'), status);
      }),
    ),
  );
}

function renderCoverage(): void {
  const races = data!.coverage?.races;
  if (!races) {
    document.getElementById('coverage')!.hidden = true;
    return;
  }
  const entries = Object.entries(races).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const total = Math.max(1, entries.reduce((a, [, n]) => a + n, 0));
  const rare = (n: number) => n === 0 || n / total < 0.01;
  const width = 900;
  const svg = s('svg', { viewBox: `0 0 ${width} ${entries.length * 22 + 10}`, width, height: entries.length * 22 + 10, role: 'img', 'aria-label': `Race pairs covered: ${entries.length} pairs` });
  entries.forEach(([name, n], k) => {
    const y = k * 22 + 4;
    const w = n === 0 ? 0 : Math.max(2, (Math.log10(n + 1) / Math.log10(max + 1)) * (width - 420));
    svg.append(s('text', { x: 300, y: y + 13, 'text-anchor': 'end', class: 'label' }, name));
    svg.append(s('rect', { x: 310, y, width: w, height: 16, class: rare(n) ? 'bar rare' : 'bar' }));
    svg.append(s('text', { x: 316 + w, y: y + 13, class: 'label' }, `${n}${rare(n) ? ' (rare)' : ''}`));
  });
  fill('coverage', h('h2', {}, 'Coverage: race pairs'), h('p', { class: 'hint' }, 'Runs in which each race pair happened (log scale); rare: in under 1% of the race pairs seen, or never.'), h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Coverage chart' }, svg));
}

// ── the whole page ──────────────────────────────────────────────────────────────────────────

function renderStep(): void {
  renderStepper();
  renderState(stateAt(run(), state.step), state.step > 0 ? stateAt(run(), state.step - 1) : undefined);
  renderTrace();
}

function renderAll(): void {
  writeHash();
  renderFindings();
  renderBanner();
  renderFilters();
  renderStep();
  fill('lifecycles', h('h2', {}, 'Requests'), renderLifecycles(run()));
  renderInspector();
  renderCompare();
  renderCommands();
  renderCoverage();
}

function start(): void {
  document.getElementById('clock')!.textContent =
    data!.clock === 'real' ? 'black box, real time: times are real milliseconds of one run' : 'simulated, virtual time: the same seed gives this page byte for byte';
  if (data!.findings.length === 0) {
    fill('banner', h('h2', {}, 'No findings'), h('p', {}, 'This report has no finding to show.'));
    document.getElementById('stepper')!.hidden = true;
    renderCoverage();
    return;
  }
  readHash();
  wireStepper();
  renderAll();
  window.addEventListener('hashchange', () => {
    readHash();
    renderAll();
  });
  document.addEventListener('keydown', (e) => {
    const t = e.target as HTMLElement;
    if (t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' && t.id !== 'scrubber')) return;
    if (t.id === 'scrubber') return; // the range input steps itself on the arrow keys
    const moves: Record<string, number> = { ArrowLeft: state.step - 1, ArrowRight: state.step + 1, Home: 0, End: run().steps.length - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    go(moves[e.key]!);
  });
}

if (data) start();
else fill('banner', h('h2', {}, 'No viewer data'), h('p', {}, 'This page has no "viewer" data in its embedded report.'));
