/**
 * Brings the children of `host` to look like `next`, changing only what
 * differs: an element of the same tag at the same place is kept (its
 * attributes and text brought up to date), so a button that has focus, or one
 * pressed but not yet released when an update arrives, is still the same
 * element afterwards. Elements carry no listeners of their own (the page
 * listens on their containers and reads `data-action`), so a kept element
 * never does what the replaced one would have done.
 */
export function morphChildren(host: Element, next: readonly Node[]): void {
  const current = [...host.childNodes];
  next.forEach((wanted, i) => {
    const have = current[i];
    if (have === undefined) host.append(wanted);
    else morph(have, wanted);
  });
  for (const extra of current.slice(next.length)) extra.remove();
}

function morph(have: Node, wanted: Node): void {
  if (have.nodeType !== wanted.nodeType || (have instanceof Element && wanted instanceof Element && have.tagName !== wanted.tagName)) {
    (have as ChildNode).replaceWith(wanted);
    return;
  }
  if (!(have instanceof Element) || !(wanted instanceof Element)) {
    if (have.textContent !== wanted.textContent) have.textContent = wanted.textContent;
    return;
  }
  // A <details> opened or closed by hand stays as the person left it.
  const kept = (name: string): boolean => name === 'open' && have instanceof HTMLDetailsElement;
  for (const { name } of [...have.attributes]) if (!wanted.hasAttribute(name) && !kept(name)) have.removeAttribute(name);
  for (const { name, value } of [...wanted.attributes]) if (have.getAttribute(name) !== value && !kept(name)) have.setAttribute(name, value);
  morphChildren(have, [...wanted.childNodes]);
}
