// Scripts run inside the page, as source text: the driver compiles without the DOM's types, and both
// protocols take an expression. Each is a function expression called with JSON arguments (see call()).

/** The expression that calls a page function with these arguments. */
export function call(fn: string, ...args: unknown[]): string {
  return `(${fn})(${args.map((arg) => JSON.stringify(arg)).join(', ')})`;
}

/**
 * Where the page's viewport lies on the screen, in device pixels, and the pixels per CSS pixel. Firefox says
 * where its content starts (mozInnerScreenX/Y); Chromium gives the window's outer and inner sizes, and its
 * frame is as wide at the bottom as at each side, so the top chrome is what remains.
 */
const viewportOrigin = `() => {
  const scale = window.devicePixelRatio || 1;
  if (typeof window.mozInnerScreenX === 'number') return { x: window.mozInnerScreenX * scale, y: window.mozInnerScreenY * scale, scale };
  const side = Math.max(0, (window.outerWidth - window.innerWidth) / 2);
  const top = Math.max(0, window.outerHeight - window.innerHeight - side);
  return { x: (window.screenX + side) * scale, y: (window.screenY + top) * scale, scale };
}`;

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
export const query = `(selector, attributes, limit) => {
  const all = document.querySelectorAll(selector);
  const origin = (${viewportOrigin})();
  return { total: all.length, elements: [...all].slice(0, limit).map((element) => (${describeElement})(element, attributes, origin)) };
}`;

/** Scrolls the first match to the middle of the view; null when nothing matches. */
export const scrollIntoView = `(selector) => {
  const element = document.querySelector(selector);
  if (!element) return null;
  element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  return (${describeElement})(element, [], (${viewportOrigin})());
}`;

/** How the focused element reads in a result: "input#name", "button.primary", "body". */
const focusName = `() => {
  const element = document.activeElement;
  if (!element) return 'nothing';
  const id = element.id ? '#' + element.id : '';
  const klass = !id && typeof element.className === 'string' && element.className.trim() ? '.' + element.className.trim().split(/\\s+/)[0] : '';
  return element.tagName.toLowerCase() + id + klass;
}`;

/** The state of the page's form controls, to see a click that checked a box or chose an option. */
const controlState = `() => [...document.querySelectorAll('input, select, textarea')].map((control) =>
  control.type === 'checkbox' || control.type === 'radio' ? String(control.checked) : String(control.value)).join('\\u0001')`;

/** Starts counting the page's DOM changes under a key of the caller's; returns the focus, URL and form controls now. */
export const startWatch = `(key) => {
  const record = { mutations: 0 };
  record.observer = new MutationObserver((list) => { record.mutations += list.length; });
  record.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  window[key] = record;
  return { url: location.href, focus: (${focusName})(), controls: (${controlState})() };
}`;

/**
 * Stops the watch: the changes it counted, the focus and URL now. Form controls' own state (a check box's
 * checked, a field's value) is no DOM mutation, so it is compared too, from a fingerprint taken at the start.
 */
export const stopWatch = `(key) => {
  const record = window[key];
  if (record) { record.mutations += record.observer.takeRecords().length; record.observer.disconnect(); delete window[key]; }
  return { mutations: record ? record.mutations : 0, url: location.href, focus: (${focusName})(), controls: (${controlState})() };
}`;

/**
 * Focuses the first match, puts the caret at its end and inserts the text as typing would (beforeinput and
 * input fire); a control that refuses execCommand gets the text through setRangeText and an input event, one
 * without a caret (number, email) through its value setter.
 * Returns the value after, or why nothing was inserted.
 */
export const insertText = `(selector, text) => {
  const element = document.querySelector(selector);
  if (!element) return { missing: true };
  const field = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
  if (!field && !element.isContentEditable) return { refused: 'not_settable', tag: element.tagName.toLowerCase() };
  if (element.disabled || element.readOnly) return { refused: 'read_only', tag: element.tagName.toLowerCase() };
  element.focus();
  if (field) {
    try {
      element.setSelectionRange(element.value.length, element.value.length);
    } catch {
      // Types without a caret API (number, email) keep the caret where focus put it, often at the start, and
      // Chromium's accessible text misses an execCommand that replaces their value: set the value through the
      // native setter (frameworks watch it) and send the input event typing sends.
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      setValue.call(element, element.value + text);
      element.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }));
      return { value: element.value };
    }
  } else {
    const range = document.createRange();
    range.selectNodeContents(element);
    range.collapse(false);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  if (!document.execCommand('insertText', false, text)) {
    if (!field) return { refused: 'not_settable', tag: element.tagName.toLowerCase() };
    element.setRangeText(text, element.value.length, element.value.length, 'end');
    element.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }));
  }
  return { value: field ? element.value : element.innerText };
}`;

/** The page's visible text. */
export const visibleText = `() => document.body ? document.body.innerText : (document.documentElement ? document.documentElement.textContent : '')`;

/** What picks the page a window shows: its title, whether it is the shown tab, and its window's place. */
export const pageFacts = `() => ({ title: document.title, visible: document.visibilityState === 'visible',
  x: window.screenX, y: window.screenY, w: window.outerWidth, h: window.outerHeight, scale: window.devicePixelRatio || 1 })`;
