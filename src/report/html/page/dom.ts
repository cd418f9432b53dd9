/** Tiny DOM builders: the page is small enough to re-render a section on each change. */
type Child = Node | string | number | false | null | undefined | readonly Child[];
type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

function append(el: Element, children: readonly Child[]): void {
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

function set(el: Element, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

/** An HTML element. Attributes named `onX` are listeners. */
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  set(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  set(el, attrs);
  append(el, children);
  return el;
}

/** Replaces the content of the element with id `id`. */
export function fill(id: string, ...children: Child[]): void {
  const el = document.getElementById(id)!;
  el.replaceChildren();
  append(el, children);
}
