/** A small element builder: text goes in as text nodes only, so nothing read from a loop's files is ever parsed as HTML. */
export type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
  return el;
}

/** A labelled value row of a card. */
export function row(label: string, value: Child, testId?: string): HTMLElement {
  return h('div', { class: 'row' }, h('span', { class: 'label' }, label), h('span', { class: 'value', 'data-testid': testId }, value));
}

export function card(title: string, testId: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card', 'data-testid': testId }, h('h2', {}, title), ...children);
}
