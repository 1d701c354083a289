// Scripts run inside the page, as source text: the driver compiles without the DOM's types, and both
// protocols take an expression. Each is a function expression called with JSON arguments (see call()).

/** The expression that calls a page function with these arguments. */
export function call(fn: string, ...args: unknown[]): string {
  return `(${fn})(${args.map((arg) => JSON.stringify(arg)).join(', ')})`;
}

/**
 * Where the page's viewport lies on the screen, in device pixels, and the pixels per CSS pixel. Firefox says
 * where its content starts (mozInnerScreenX/Y); Chromium gives the window's place and outer size in its own
 * pixels (DIPs, which the browser's zoom leaves alone) and the inner size in CSS pixels (which it does not), and its
 * frame is as wide at the bottom as at each side, so the top chrome is what remains. `dip`: device pixels per DIP
 * (the window's width on the X screen over its outerWidth); without it, the display's scale is taken for it, which
 * holds only at 100% zoom: at 125% every box query_dom gave was 130 px off.
 */
const viewportOrigin = `(dip) => {
  const scale = window.devicePixelRatio || 1;
  if (typeof window.mozInnerScreenX === 'number') return { x: window.mozInnerScreenX * scale, y: window.mozInnerScreenY * scale, scale };
  const perDip = dip > 0 ? dip : scale;
  const side = Math.max(0, (window.outerWidth - (window.innerWidth * scale) / perDip) / 2);
  const top = Math.max(0, window.outerHeight - (window.innerHeight * scale) / perDip - side);
  return { x: (window.screenX + side) * perDip, y: (window.screenY + top) * perDip, scale };
}`;

/** The viewport's origin on the screen (see viewportOrigin), its size in CSS pixels and how far the page is scrolled. */
export const viewport = `(dip) => ({ ...(${viewportOrigin})(dip), width: window.innerWidth, height: window.innerHeight, scrollX: window.scrollX, scrollY: window.scrollY })`;

/** One element as query_dom reports it (see PageElement), its box placed on the screen. */
const describeElement = `(element, attributes, origin) => {
  const box = element.getBoundingClientRect();
  const shown = box.width > 0 || box.height > 0 || element.getClientRects().length > 0;
  const text = (element.innerText ?? element.textContent ?? '').replace(/\\s+/g, ' ').trim();
  const inViewport = shown && box.bottom > 0 && box.right > 0 && box.top < window.innerHeight && box.left < window.innerWidth;
  return {
    tag: element.tagName.toLowerCase(),
    attributes: Object.fromEntries(attributes.map((name) => [name, element.getAttribute(name)])),
    text: text.length > 300 ? text.slice(0, 299) + '…' : text,
    ...(shown ? { bounds: { x: origin.x + box.left * origin.scale, y: origin.y + box.top * origin.scale, w: box.width * origin.scale, h: box.height * origin.scale } } : {}),
    inViewport,
  };
}`;

/** Every match of a selector (up to limit), as PageElements; a selector that does not parse throws the browser's SyntaxError. */
export const query = `(selector, attributes, limit, dip) => {
  const all = document.querySelectorAll(selector);
  const origin = (${viewportOrigin})(dip);
  return { total: all.length, elements: [...all].slice(0, limit).map((element) => (${describeElement})(element, attributes, origin)) };
}`;

/** Scrolls the first match to the middle of the view; null when nothing matches. */
export const scrollIntoView = `(selector, dip) => {
  const element = document.querySelector(selector);
  if (!element) return null;
  element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  return (${describeElement})(element, [], (${viewportOrigin})(dip));
}`;

/** How an element reads in a result: "input#name", "button.primary", "body". */
export const describeNode = `(element) => {
  const id = element.id ? '#' + element.id : '';
  const klass = !id && typeof element.className === 'string' && element.className.trim() ? '.' + element.className.trim().split(/\\s+/)[0] : '';
  return element.tagName.toLowerCase() + id + klass;
}`;

/**
 * What lies over the centre of the first match of a selector, when that is another element than the match or what
 * it holds (an overlay, a cookie banner, a dialog's backdrop): it, not the match, takes a click there. Looked for
 * through open shadow roots; undefined when the centre is the match's own or off the view.
 */
export const coverAt = `(selector) => {
  const element = document.querySelector(selector);
  if (!element) return undefined;
  const box = element.getBoundingClientRect();
  let hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit || hit === element || element.contains(hit)) return undefined;
  return (${describeNode})(hit);
}`;

/** How the focused element reads in a result. */
const focusName = `() => document.activeElement ? (${describeNode})(document.activeElement) : 'nothing'`;

/** The state of the page's form controls, to see a click that checked a box or chose an option. */
const controlState = `() => [...document.querySelectorAll('input, select, textarea')].map((control) =>
  control.type === 'checkbox' || control.type === 'radio' ? String(control.checked) : String(control.value)).join('\\u0001')`;

/**
 * Starts watching the page's DOM under a key of the caller's. Until beginWatch, what changes is the page's own
 * activity (a clock, a ticker, an animation's attribute): the nodes it touches are remembered, and a change to
 * one of them after beginWatch is not counted as the action's (a text node's change counts as its element's).
 */
export const startWatch = `(key) => {
  const record = { mutations: 0, background: 0, counting: false, busy: new Set() };
  const owner = (mutation) => mutation.type === 'characterData' ? mutation.target.parentNode : mutation.target;
  record.take = (list) => {
    for (const mutation of list) {
      const node = owner(mutation);
      if (!record.counting) record.busy.add(node);
      else if (record.busy.has(node)) record.background++;
      else record.mutations++;
    }
  };
  record.observer = new MutationObserver((list) => record.take(list));
  record.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  window[key] = record;
}`;

/** From now on changes count as the action's (see startWatch); returns the focus, URL and form controls now. */
export const beginWatch = `(key) => {
  const record = window[key];
  if (record) { record.take(record.observer.takeRecords()); record.counting = true; }
  return { url: location.href, focus: (${focusName})(), controls: (${controlState})() };
}`;

/**
 * Stops the watch: the changes it counted (and those to nodes the page was changing before), the focus and URL
 * now. Form controls' own state (a check box's checked, a field's value) is no DOM mutation, so it is compared
 * too, from a fingerprint taken at beginWatch.
 */
export const stopWatch = `(key) => {
  const record = window[key];
  if (record) { record.take(record.observer.takeRecords()); record.observer.disconnect(); delete window[key]; }
  return { mutations: record ? record.mutations : 0, background: record ? record.background : 0, url: location.href, focus: (${focusName})(), controls: (${controlState})() };
}`;

/**
 * Focuses a field (input, textarea, contenteditable) and inserts the text as typing would (beforeinput and
 * input fire): at the end of its text, or over the whole of it (replace). A control that refuses execCommand
 * gets the text through setRangeText and an input event, one without a caret (number, email) through its
 * value setter. The field may live in a frame, so its own window's classes and selection are used.
 * Returns the value after, or why nothing was inserted.
 */
/** The kinds of <input> whose value a picker sets and commits at once, which Blink and Gecko show as parts. */
export const DATE_TIME_INPUT_TYPES: readonly string[] = ['date', 'time', 'datetime-local', 'month', 'week'];

export const insertIntoElement = `(element, text, replace) => {
  const view = element.ownerDocument.defaultView;
  const tag = element.tagName.toLowerCase();
  const field = element instanceof view.HTMLInputElement || element instanceof view.HTMLTextAreaElement;
  if (!field && !element.isContentEditable) return { refused: 'not_settable', tag };
  if (element.disabled || element.readOnly) return { refused: 'read_only', tag };
  element.focus();
  const inputEvent = () => element.dispatchEvent(new view.InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }));
  if (field) {
    try {
      element.setSelectionRange(replace ? 0 : element.value.length, element.value.length);
    } catch {
      // Types without a caret API (number, email) keep the caret where focus put it, often at the start, and
      // Chromium's accessible text misses an execCommand that replaces their value: set the value through the
      // native setter (frameworks watch it) and send the input event typing sends.
      const setValue = Object.getOwnPropertyDescriptor(view.HTMLInputElement.prototype, 'value').set;
      const [before, wanted] = [element.value, replace ? text : element.value + text];
      setValue.call(element, wanted);
      // A value the field cannot hold (a date not written YYYY-MM-DD) empties it: the old one is put back, unannounced.
      if (element.value === '' && wanted !== '') {
        setValue.call(element, before);
        return { value: before };
      }
      inputEvent();
      // A date or time field's picker commits what it sets at once: pages listen for its change event.
      if (replace && ${JSON.stringify(DATE_TIME_INPUT_TYPES)}.includes(element.type)) element.dispatchEvent(new view.Event('change', { bubbles: true }));
      return { value: element.value };
    }
  } else {
    const range = element.ownerDocument.createRange();
    range.selectNodeContents(element);
    if (!replace) range.collapse(false);
    const selection = view.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  // Replacing with nothing is deleting the selection, as a user would.
  const done = text === '' ? !replace || element.ownerDocument.execCommand('delete') : element.ownerDocument.execCommand('insertText', false, text);
  if (!done) {
    if (!field) return { refused: 'not_settable', tag };
    element.setRangeText(text, replace ? 0 : element.value.length, element.value.length, 'end');
    inputEvent();
  }
  return { value: field ? element.value : element.innerText };
}`;

/** Inserts the text at the end of the first match (see insertIntoElement); { missing: true } when nothing matches. */
export const insertText = `(selector, text) => {
  const element = document.querySelector(selector);
  return element ? (${insertIntoElement})(element, text, false) : { missing: true };
}`;

/**
 * Text compared as the accessibility tree gives it: runs of white space (and embedded objects' U+FFFC) as one
 * space, none at the ends. Used here and, as its source, inside page scripts.
 */
export function normalText(text: unknown): string {
  return String(text ?? '').replace(/[\s\uFFFC]+/g, ' ').trim();
}

/**
 * The element at a point of the viewport (CSS pixels), looked for through same-origin frames and open shadow roots,
 * with the offset of the frame it lies in (its box plus the offset is its place in the top viewport).
 */
const elementAt = `(point) => {
  let doc = document, x = point.x, y = point.y, offsetX = 0, offsetY = 0, hit = null;
  for (;;) {
    hit = doc.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    let inner = null;
    try {
      inner = hit && (hit.localName === 'iframe' || hit.localName === 'frame') ? hit.contentDocument : null;
    } catch {
      // A cross-origin frame is not ours to look into.
    }
    if (!inner) break;
    const box = hit.getBoundingClientRect();
    const style = hit.ownerDocument.defaultView.getComputedStyle(hit);
    const dx = box.left + hit.clientLeft + parseFloat(style.paddingLeft), dy = box.top + hit.clientTop + parseFloat(style.paddingTop);
    x -= dx; y -= dy; offsetX += dx; offsetY += dy; doc = inner;
  }
  return { hit, offsetX, offsetY };
}`;

/**
 * The field at a point of the page's viewport (CSS pixels), looked for inside same-origin frames and open
 * shadow roots, if it is the accessible field described by expected ({name, text, box} with the box in the
 * viewport's CSS pixels): the editable element there (the input, textarea or contenteditable host around what
 * the point hits) whose box is the accessible one's and whose label or text is too. The text is inserted
 * into it (insertIntoElement). WebDriver BiDi has no accessibility tree to ask, so the label is worked out
 * here the way accessible names mostly are: aria-labelledby, aria-label, <label>, title, placeholder.
 */
export const insertIntoFieldAt = `(point, expected, text, replace) => {
  const normal = ${normalText.toString()};
  const { hit, offsetX, offsetY } = (${elementAt})(point);
  const parentOf = (node) => node.parentElement ?? (node.parentNode && node.parentNode.host) ?? null;
  const isField = (node) => node.localName === 'textarea' ||
    (node.localName === 'input' && !['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit'].includes(node.type));
  let field = hit;
  while (field && !isField(field) && !field.isContentEditable) field = parentOf(field);
  if (!field) return { inserted: false, reason: 'no editable element of the page lies at its centre' + (hit ? ' (there is a <' + hit.localName + '>)' : '') };
  if (!isField(field)) while (field.parentElement && field.parentElement.isContentEditable) field = field.parentElement;
  const root = field.getRootNode();
  const byId = (id) => (root.getElementById ? root.getElementById(id) : null) ?? field.ownerDocument.getElementById(id);
  const labelText = (label) => {
    const copy = label.cloneNode(true);
    copy.querySelectorAll('input, select, textarea, button').forEach((control) => control.remove());
    return copy.textContent;
  };
  const ids = (field.getAttribute('aria-labelledby') ?? '').split(/\\s+/).filter(Boolean).map(byId).filter(Boolean);
  const label = normal(ids.length ? ids.map((node) => node.textContent).join(' ')
    : field.getAttribute('aria-label') || (field.labels && field.labels.length ? [...field.labels].map(labelText).join(' ') : '') || field.title || field.placeholder || '');
  const value = isField(field) ? field.value : field.innerText;
  const masked = /^[\\u2022\\u25cf*]+$/u.test(expected.text) && field.type === 'password';
  const sameText = masked ? [...value].length === [...expected.text].length : normal(value) === normal(expected.text);
  const box = field.getBoundingClientRect();
  const sameBox = [box.left + offsetX - expected.box.x, box.top + offsetY - expected.box.y, box.width - expected.box.w, box.height - expected.box.h].every((d) => Math.abs(d) <= 3);
  const node = (${describeNode})(field);
  if (!sameBox || !(label === normal(expected.name) || sameText)) {
    return { inserted: false, reason: 'the page\\'s field at its centre, <' + node + '> labelled "' + label + '", is not it (' + (sameBox ? 'neither its label nor its text agrees' : 'its box differs') + ')' };
  }
  const done = (${insertIntoElement})(field, text, replace);
  if (done.refused) return { inserted: false, reason: '<' + node + '> takes no text (' + (done.refused === 'read_only' ? 'read-only or disabled' : 'not a text field') + ')' };
  return { inserted: true, node, value: done.value };
}`;

/**
 * Inserts text into the page's focused element (through open shadow roots and same-origin frames), as typing would:
 * the field a person's keys would reach. Refused where nothing editable has the focus.
 */
export const insertIntoFocused = `(text) => {
  let element = document.activeElement;
  for (;;) {
    if (element && element.shadowRoot && element.shadowRoot.activeElement) element = element.shadowRoot.activeElement;
    else if (element && element.localName === 'iframe' && element.contentDocument && element.contentDocument.activeElement) element = element.contentDocument.activeElement;
    else break;
  }
  if (!element || element === element.ownerDocument.body || element === element.ownerDocument.documentElement) return { inserted: false, reason: 'no element of the page has its focus' };
  const node = (${describeNode})(element);
  const done = (${insertIntoElement})(element, text, false);
  if (done.refused) return { inserted: false, reason: 'the page\\'s focused element, <' + node + '>, takes no text (' + (done.refused === 'read_only' ? 'read-only or disabled' : 'not a text field') + ')' };
  return { inserted: true, node, value: done.value };
}`;

/** The page's visible text. */
export const visibleText = `() => document.body ? document.body.innerText : (document.documentElement ? document.documentElement.textContent : '')`;

/** What picks the page a window shows: its title, whether it is the shown tab, and its window's place. */
export const pageFacts = `() => ({ title: document.title, visible: document.visibilityState === 'visible',
  x: window.screenX, y: window.screenY, w: window.outerWidth, h: window.outerHeight, scale: window.devicePixelRatio || 1 })`;

/**
 * Scrolls the box of the page at a point of the viewport (CSS pixels) by dx, dy CSS pixels: the nearest element
 * around what the point hits that the page itself scrolls along that axis (overflow auto, scroll or overlay, with
 * more content than room), if its box is the expected one ({x, y, w, h} in the top viewport's CSS pixels, within
 * 3 px). The page's own scrolling element is not a box: the caller scrolls the page otherwise.
 */
export const scrollBoxAt = `(point, expected, dx, dy) => {
  const { hit, offsetX, offsetY } = (${elementAt})(point);
  const parentOf = (node) => node.parentElement ?? (node.parentNode && node.parentNode.host) ?? null;
  const vertical = dy !== 0;
  const scrolls = (node) => {
    const style = node.ownerDocument.defaultView.getComputedStyle(node);
    const overflow = vertical ? style.overflowY : style.overflowX;
    return /^(auto|scroll|overlay)$/.test(overflow) && (vertical ? node.scrollHeight > node.clientHeight : node.scrollWidth > node.clientWidth);
  };
  let box = hit;
  while (box && box !== box.ownerDocument.scrollingElement && !scrolls(box)) box = parentOf(box);
  if (!box || box === box.ownerDocument.scrollingElement) {
    return { scrolled: false, reason: 'no box of the page around ' + (hit ? '<' + (${describeNode})(hit) + '>' : 'that point') + ' scrolls on its own' };
  }
  const node = (${describeNode})(box);
  const rect = box.getBoundingClientRect();
  const sameBox = [rect.left + offsetX - expected.x, rect.top + offsetY - expected.y, rect.width - expected.w, rect.height - expected.h].every((d) => Math.abs(d) <= 3);
  if (!sameBox) return { scrolled: false, reason: 'the box of the page that scrolls there, <' + node + '>, is not the one accessibility shows (its box differs)' };
  const at = () => (vertical ? box.scrollTop : box.scrollLeft);
  const before = at();
  box.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  return { scrolled: true, node, before: Math.round(before), after: Math.round(at()), end: Math.round(vertical ? box.scrollHeight - box.clientHeight : box.scrollWidth - box.clientWidth) };
}`;
