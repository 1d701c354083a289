// Heuristic "cursor-input": where the visible cursor is, input goes. The node under the cursor is
// focused; a one-row box around the cursor is a text field (dialog --inputbox); a prompt such as "$ ",
// ">>> " or "Password: " before the cursor makes the rest of the row a text field named by the prompt.
import { Attr, DEFAULT_COLOR, DEFAULT_FOREGROUND, resolveColor } from '../grid.js';
import type { Bounds } from '../ui-node.js';
import type { DetectedBox } from './boxes.js';
import { area, contains, tidy, type Found, type ScreenScan } from './scan.js';

export const INPUT_HEURISTIC = 'cursor-input';

const INTERACTIVE = new Set(['button', 'listitem', 'checkbox', 'radio', 'textbox']);
// The first prompt-ending run followed by a space; a lazy prefix keeps "> " inside a command line from
// being taken for the prompt. Failing that, a word in parentheses opening the row (gdb's "(gdb) ", pdb's
// "(Pdb) ") or a name in square brackets (a chat client's "[#channel] ", irssi's "[(status)] "); tried
// second, so "(venv) ada@host:~$ " is still named by its "$".
const PROMPT_END = String.raw`[$#%>:?❯»➜]+|\.\.\.`;
const PROMPT = new RegExp(String.raw`^(\s*)((?:\S.{0,60}?)?(?:${PROMPT_END})|\([\p{L}\p{N}_.-]{1,20}\)|\[[^\]\s][^\]]{0,29}\])(?= |$)`, 'u');
/**
 * A prompt that is only punctuation ending in a prompt's mark (python's "..." and ">>>", sqlite3's "...>",
 * ipython's "...:", a shell's "$" or ">"), as text runs meet it: a word of no letter or figure, yet no filler.
 */
export const PROMPT_MARK = new RegExp(String.raw`^[^\p{L}\p{N}\s]*?(?:${PROMPT_END})$`, 'u');

function labelAbove(scan: ScreenScan, box: Found): string {
  const { x, y, w } = box.bounds;
  for (let row = y - 1; row >= Math.max(0, y - 2); row--) {
    const text = tidy(scan.slice(row, Math.max(0, x - 2), x + w).text.replace(/[│┃║|]/g, ' '));
    if (text) return text.replace(/:$/, '');
  }
  return '';
}

/** Shortest run of field colour worth calling a field: a one-cell highlight is a cursor or a hotkey. */
const MIN_FIELD_WIDTH = 4;

/**
 * Inside a box, a cursor on a run of cells in another background than the box's that no other heuristic
 * explained is in a text field drawn as a coloured strip (mc's and many curses forms' inputs): the run is
 * a focused textbox, named by the text just above it or before it on the row.
 */
function highlightedField(scan: ScreenScan, regionIndex: number): Found[] | undefined {
  const region = scan.regions[regionIndex]!;
  const { cursor, cols } = scan.grid;
  if (!region.box || scan.claimed[cursor.y * cols + cursor.x]) return undefined;
  const colour = scan.background(cursor.x, cursor.y);
  if (colour === region.background) return undefined;
  const inRun = (x: number) => inStrip(scan, regionIndex, x, cursor.y, colour);
  let left = cursor.x;
  let right = cursor.x;
  while (inRun(left - 1)) left--;
  while (inRun(right + 1)) right++;
  if (right - left + 1 < MIN_FIELD_WIDTH) return undefined;
  const bounds = { x: left, y: cursor.y, w: right - left + 1, h: 1 };
  const before = tidy(scan.slice(cursor.y, region.rect.x, left).text);
  const name = before || labelAbove(scan, { role: 'textbox', name: '', bounds, heuristic: INPUT_HEURISTIC });
  scan.claim(bounds);
  return [{ ...stripField(scan, bounds, name, cursor.x), focused: true }, ...siblingFields(scan, regionIndex, bounds)];
}

/** Whether the cell at x, y is one of the region's, unclaimed, in `colour`: part of a strip drawn in it. */
function inStrip(scan: ScreenScan, regionIndex: number, x: number, y: number, colour: number): boolean {
  const { rect } = scan.regions[regionIndex]!;
  const index = y * scan.grid.cols + x;
  return x >= rect.x && x < rect.x + rect.w && scan.owner[index] === regionIndex && scan.claimed[index] === 0 && scan.background(x, y) === colour;
}

/**
 * A text field on a one-row strip, named by its label (without its colon) and holding the strip's text, read with
 * the caret at `caretX`. newt (whiptail) draws the strip's empty part with underscores, as lynx does: they are not
 * the value (fieldText).
 */
function stripField(scan: ScreenScan, bounds: Bounds, label: string, caretX: number): Found {
  const { text, columnAt } = scan.slice(bounds.y, bounds.x, bounds.x + bounds.w);
  return { role: 'textbox', name: label.replace(/:$/, ''), value: tidy(fieldText(text, columnAt, caretX).value), bounds, heuristic: INPUT_HEURISTIC };
}

/**
 * A form lays its fields out in a column: on the box's other rows, a strip in a background other than the
 * box's covering exactly the focused field's columns is a field too, without focus (dialog --form draws
 * them in another colour than the focused one; without this an empty one read as nothing at all), named
 * by the text before it on its row.
 */
function siblingFields(scan: ScreenScan, regionIndex: number, field: Bounds): Found[] {
  const region = scan.regions[regionIndex]!;
  const fields: Found[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const colour = scan.background(field.x, y);
    if (y === field.y || colour === region.background) continue;
    const striped = (x: number) => inStrip(scan, regionIndex, x, y, colour);
    let across = true;
    for (let x = field.x; x < field.x + field.w && across; x++) across = striped(x);
    if (!across || striped(field.x - 1) || striped(field.x + field.w)) continue;
    const bounds = { x: field.x, y, w: field.w, h: 1 };
    const name = tidy(scan.slice(y, region.rect.x, field.x).text);
    scan.claim(bounds);
    fields.push(stripField(scan, bounds, name, field.x));
  }
  return fields;
}

/**
 * Inside a dialog (a box clear of the screen's edges), a strip of another background than the box's on one
 * row, under a row whose text ends with ':', is a text field labelled by that row, with or without the
 * cursor (mc's Copy dialog: "*" under "Copy 2 files with source mask:", the cursor in the "to:" field
 * below). Read before lists, which otherwise take the label and the strip for two items with the strip
 * selected. Not when the row below starts where the strip's text does, unless it is blank or a label too: a
 * list under a caption ("Choose:") with its first item under the bar goes on there.
 */
export function findLabelledFields(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const { rect } = region;
  const { cols, rows } = scan.grid;
  if (!region.box || rect.x <= 1 || rect.y <= 1 || rect.x + rect.w >= cols - 1 || rect.y + rect.h >= rows - 1) return [];
  const open = (x: number, y: number) => scan.owner[y * cols + x] === regionIndex && scan.claimed[y * cols + x] === 0;
  const fields: Found[] = [];
  for (let y = rect.y + 1; y < rect.y + rect.h; y++) {
    const label = tidy(scan.regionRow(regionIndex, y - 1).text);
    if (!label.endsWith(':')) continue;
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    const lit = (x: number) => open(x, y) && scan.background(x, y) !== region.background;
    let left = rect.x;
    while (left < rect.x + rect.w && !lit(left)) left++;
    let right = left;
    while (right + 1 < rect.x + rect.w && lit(right + 1)) right++;
    if (left >= rect.x + rect.w || right - left + 1 < MIN_FIELD_WIDTH) continue;
    // The strip holds all of the row's text.
    const inkOutside = [...text].some((char, index) => char !== ' ' && (columnAt[index]! < left || columnAt[index]! > right));
    if (inkOutside) continue;
    const below = y + 1 < rect.y + rect.h ? scan.regionRow(regionIndex, y + 1) : undefined;
    const belowText = below ? tidy(below.text) : '';
    const ink = columnAt[text.search(/\S/)] ?? left;
    const belowInk = below ? below.columnAt[below.text.search(/\S/)] : undefined;
    if (belowText && !belowText.endsWith(':') && belowInk === ink) continue;
    const bounds = { x: left, y, w: right - left + 1, h: 1 };
    scan.claim(bounds);
    fields.push(stripField(scan, bounds, label, right + 1));
  }
  return fields;
}

const blank = (char: string | undefined) => char === undefined || char.trim() === '';

/**
 * The row's text stops one or two cells before the cursor and nothing follows it: a question waiting for
 * its answer (top's "Which user (blank for all)" drawn among its rows), not an item of the list.
 */
function endsJustBefore(scan: ScreenScan, bounds: Found['bounds'], cursor: { x: number; y: number }): boolean {
  const { chars, cols } = scan.grid;
  const at = (x: number) => chars[cursor.y * cols + x];
  for (let x = cursor.x; x < bounds.x + bounds.w; x++) if (!blank(at(x))) return false;
  return [cursor.x - 1, cursor.x - 2].some((x) => x >= bounds.x && !blank(at(x)));
}

/**
 * A visible cursor on a line of plain text outside every box and list (a split window counts as outside), when no other node took it (nano's
 * edit buffer, w3m's cursor on a link's words), marks where the keys act: the text run under it, or the
 * one it just follows as after typing, gets focus.
 */
export function focusTextAtCursor(scan: ScreenScan, nodes: readonly Found[]): void {
  const { cursor, cols } = scan.grid;
  if (!cursor.visible || cursor.y >= scan.grid.rows || cursor.x >= cols) return;
  // Inside a box the box's own rules decide; a split window (vim -O) is a region without a box, and counts as plain text.
  if (scan.regions[scan.owner[cursor.y * cols + cursor.x]!]!.box) return;
  if (nodes.some((node) => node.focused || (node.selected && node.role !== 'button'))) return;
  const text = nodes.find((node) => node.role === 'text' && node.bounds.y === cursor.y && cursor.x >= node.bounds.x && cursor.x <= node.bounds.x + node.bounds.w);
  if (text) text.focused = true;
}

const oneRowBox = (box: DetectedBox) => box.sections.length === 1 && box.sections[0]!.h === 1;

/**
 * A box around one row is a text field (dialog --inputbox): named by its title or the label above it,
 * holding the row's text. Its bounds are that row, where the text is typed and a click lands, not the
 * frame around it.
 */
function boxToField(scan: ScreenScan, box: DetectedBox): void {
  const inside = box.sections[0]!;
  Object.assign(box.node, {
    role: 'textbox',
    name: box.node.name || labelAbove(scan, box.node),
    value: tidy(scan.slice(inside.y, inside.x, inside.x + inside.w).text),
    bounds: { ...inside },
    heuristic: INPUT_HEURISTIC,
  });
  scan.claim(inside);
}

/**
 * A one-row box inside another box (a dialog's input field) is a text field whether or not the cursor is
 * in it: after Tab moves the focus to a button, dialog --inputbox's field still holds the answer, an
 * unfocused textbox rather than a frame with plain text in it. A one-row box on its own needs the cursor
 * (findCursorInput), as a framed one-line message looks the same. Read after the other heuristics of the
 * regions, so a one-row box they explained (a progress bar's frame) stays theirs.
 */
export function findBoxedFields(scan: ScreenScan, boxes: readonly DetectedBox[]): void {
  for (const box of boxes) {
    if (!oneRowBox(box) || box.sections[0]!.w < MIN_FIELD_WIDTH) continue;
    // What another heuristic explained (dialog --gauge's bar in its one-row box) is not typed text.
    const inside = box.sections[0]!;
    if (scan.claimed.subarray(inside.y * scan.grid.cols + inside.x, inside.y * scan.grid.cols + inside.x + inside.w).some((cell) => cell !== 0)) continue;
    if (boxes.some((other) => other !== box && contains(other.node.bounds, box.node.bounds))) boxToField(scan, box);
  }
}

export function findCursorInput(scan: ScreenScan, nodes: readonly Found[], boxes: readonly DetectedBox[]): Found[] {
  const { cursor } = scan.grid;
  if (!cursor.visible || cursor.y >= scan.grid.rows || cursor.x >= scan.grid.cols) return [];
  const at = { x: cursor.x, y: cursor.y, w: 1, h: 1 };

  const under = nodes.filter((node) => INTERACTIVE.has(node.role) && contains(node.bounds, at));
  if (under.length > 0) {
    const node = under.sort((a, b) => area(a.bounds) - area(b.bounds))[0]!;
    node.focused = true;
    if (node.role === 'listitem' && !node.selected && endsJustBefore(scan, node.bounds, cursor)) {
      Object.assign(node, { role: 'textbox', name: node.name.replace(/:$/, ''), value: '', heuristic: INPUT_HEURISTIC });
    }
    return [];
  }

  const field = boxes.find((box) => oneRowBox(box) && contains(box.sections[0]!, at));
  if (field) {
    if (field.node.heuristic !== INPUT_HEURISTIC) boxToField(scan, field);
    field.node.focused = true;
    return [];
  }

  const regionIndex = scan.owner[cursor.y * scan.grid.cols + cursor.x]!;
  const region = scan.regions[regionIndex]!;
  const highlighted = highlightedField(scan, regionIndex);
  if (highlighted) return highlighted;
  const { text, columnAt } = scan.regionRow(regionIndex, cursor.y);
  // The screen's last row of a window beside another (one whose edge runs down to the bottom), holding the
  // cursor, with its text from the window's left edge or none, is an input line with no prompt (weechat's,
  // under its status bar beside the buffer list): what it shows is what was typed.
  if (region.split === 'window' && cursor.y === scan.grid.rows - 1 && (/^\S/.test(text) || text.trim() === '')) {
    const bounds = { x: region.rect.x, y: cursor.y, w: region.rect.w, h: 1 };
    scan.claim(bounds);
    return [{ role: 'textbox', name: '', value: text.trimEnd(), focused: true, bounds, heuristic: INPUT_HEURISTIC }];
  }
  const wrapped = wrappedInput(scan, regionIndex);
  if (wrapped) return [wrapped];
  const prompt = PROMPT.exec(text) ?? lastRowQuestion(scan, text, columnAt);
  const promptStart = prompt ? prompt[1]!.length : 0;
  const promptEnd = prompt ? promptStart + prompt[2]!.length : 0;
  // Input after a prompt starts past the blank that follows it; a cursor on the prompt itself (vim's
  // cursor on a line that happens to begin with "> ") is not at a prompt. Without a prompt, the last row
  // may be vi's or a pager's command line (a shell prompt "/work$ " is a prompt first).
  if (!prompt || promptEnd >= columnAt.length || columnAt[promptEnd]! + 1 > cursor.x) {
    const command = commandLine(scan, region.rect, text, columnAt);
    return command ? [command] : [];
  }
  const valueStart = Math.min(promptEnd + 1, text.length);
  const x = columnAt[promptStart]!;
  // A right prompt is no part of the field; a suggestion past the cursor is in it but was not typed.
  const rightPrompt = rightPromptStart(text.slice(valueStart), columnAt.slice(valueStart), cursor.x, region.rect.x + region.rect.w);
  const fieldEnd = rightPrompt === undefined ? text.length : valueStart + rightPrompt;
  const typed = Math.min(fieldEnd, valueStart + suggestionStart(scan, text.slice(valueStart, fieldEnd), columnAt.slice(valueStart, fieldEnd), cursor));
  const filled = fieldText(text.slice(valueStart, typed), columnAt.slice(valueStart, typed), cursor.x);
  const value = filled.value;
  // The field runs up to the right prompt, over the blanks the line grows into.
  const end = filled.end ?? (rightPrompt === undefined ? undefined : rightPrompt - 1);
  // A field drawn with a fill ends with it; what follows on the row (lynx's Submit button) is not its text.
  const right = end === undefined ? region.rect.x + region.rect.w : scan.columnEnd(cursor.y, columnAt, valueStart + end);
  const bounds = { x, y: cursor.y, w: right - x, h: 1 };
  scan.claim(bounds);
  return [{ role: 'textbox', name: prompt[2]!, value, focused: true, bounds, heuristic: INPUT_HEURISTIC }];
}

/**
 * A command line longer than the screen is wide, which the terminal wrapped onto the rows below its prompt
 * (CellGrid.wrapped): the cursor's row may hold no prompt, or only the line's start. The rows of the one
 * line are one field, named by the prompt on its first row, its value all that follows it on every row.
 */
function wrappedInput(scan: ScreenScan, regionIndex: number): Found | undefined {
  const { cursor, wrapped, cols } = scan.grid;
  const { rect } = scan.regions[regionIndex]!;
  if (rect.x !== 0 || rect.w !== cols) return undefined;
  let first = cursor.y;
  while (first > rect.y && wrapped[first]) first--;
  let last = cursor.y;
  while (last + 1 < rect.y + rect.h && wrapped[last + 1]) last++;
  if (first === last) return undefined;
  let line = '';
  let cursorAt = -1;
  let firstRow = 0;
  for (let y = first; y <= last; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    if (y === cursor.y) {
      const at = columnAt.findIndex((x) => x >= cursor.x);
      cursorAt = line.length + (at < 0 ? text.length : at);
    }
    line += text;
    if (y === first) firstRow = line.length;
  }
  const prompt = PROMPT.exec(line);
  const valueStart = prompt ? prompt[1]!.length + prompt[2]!.length + 1 : 0;
  // The prompt stands on the line's first row.
  if (!prompt || valueStart > firstRow) return undefined;
  // The cursor on the prompt itself is not at a prompt, as on one row.
  if (cursorAt < valueStart) return undefined;
  const bounds = { x: rect.x, y: first, w: rect.w, h: last - first + 1 };
  scan.claim(bounds);
  return { role: 'textbox', name: prompt[2]!, value: line.slice(valueStart).trimEnd(), focused: true, bounds, heuristic: INPUT_HEURISTIC };
}

/** Marks that open a command line: a command (`:`), a search forward (`/`) or back (`?`). */
const COMMAND_MARK = /^[:/?]/;

/**
 * vi's and the pagers' command line: the screen's last row opening, at the region's left edge, with `:`,
 * `/` or `?` and the cursor past the mark (vim's ":set nu", less's and vim's "/pattern", a bare "/" just
 * pressed). The mark names the field and what follows it was typed; without this a bare mark read as no
 * node at all (punctuation says nothing as text) and a typed command as plain text.
 */
function commandLine(scan: ScreenScan, rect: Bounds, text: string, columnAt: readonly number[]): Found | undefined {
  const { cursor, rows } = scan.grid;
  if (cursor.y !== rows - 1 || columnAt[0] !== rect.x || !COMMAND_MARK.test(text) || cursor.x <= rect.x) return undefined;
  const bounds = { x: rect.x, y: cursor.y, w: rect.w, h: 1 };
  scan.claim(bounds);
  return { role: 'textbox', name: text[0]!, value: text.slice(1).trimEnd(), focused: true, bounds, heuristic: INPUT_HEURISTIC };
}

/**
 * On the screen's last row, text that ends one blank before the cursor with nothing after it is a prompt
 * waiting for its answer, whatever it ends with (emacs's "M-x ", a question without a colon): shaped like
 * a PROMPT match, the whole text as the prompt.
 */
function lastRowQuestion(scan: ScreenScan, text: string, columnAt: readonly number[]): RegExpExecArray | null {
  const { cursor, rows } = scan.grid;
  const end = columnAt.findIndex((x) => x >= cursor.x);
  if (cursor.y !== rows - 1 || end < 0) return null;
  const match = /^(\s*)(\S.*?)(?= $)/.exec(text.slice(0, end));
  if (!match || text.slice(match[0].length).trim() !== '') return null;
  return match;
}

/** Blanks at least between a command line's text and a right prompt (zsh's RPROMPT, fish's right prompt). */
const RIGHT_PROMPT_GAP = 4;
/** A right prompt ends this close to the row's right edge: zsh leaves the last column free. */
const RIGHT_EDGE_SLACK = 2;

/**
 * Where a right prompt starts in a prompt's field text (in units of `text`): the last run after a gap of
 * RIGHT_PROMPT_GAP blanks or more, ending at the region's right edge, with the cursor before the gap. A shell
 * draws it there ("[0] 12:00") and moves it as the line grows; it was never typed.
 */
function rightPromptStart(text: string, columnAt: readonly number[], cursorX: number, rightEdge: number): number | undefined {
  const match = new RegExp(`^(.*\\S)? {${RIGHT_PROMPT_GAP},}(\\S(?:.*\\S)?)\\s*$`).exec(text);
  if (!match) return undefined;
  const gapStart = match[1]?.length ?? 0;
  const start = match[0].length - match[0].slice(gapStart).trimStart().length;
  const last = start + match[2]!.length - 1;
  if (columnAt[last]! < rightEdge - RIGHT_EDGE_SLACK) return undefined;
  const gapColumn = gapStart < columnAt.length ? columnAt[gapStart]! : cursorX;
  return cursorX <= gapColumn + 1 ? start : undefined;
}

/** Foreground and attributes of a cell. */
function inkAt(scan: ScreenScan, x: number, y: number): string {
  const index = y * scan.grid.cols + x;
  return `${scan.grid.fg[index]}/${scan.grid.flags[index]}`;
}

/** Faint type: the dim attribute, or a grey foreground well below the default one (fish's #555555, colour 8). */
function faint(scan: ScreenScan, x: number, y: number): boolean {
  const index = y * scan.grid.cols + x;
  if (scan.grid.flags[index]! & Attr.dim) return true;
  if (scan.grid.fg[index] === DEFAULT_COLOR) return false;
  const [r, g, b] = resolveColor(scan.grid.fg[index]!, DEFAULT_FOREGROUND);
  const high = Math.max(r, g, b);
  return high - Math.min(r, g, b) <= 24 && high >= 0x40 && high <= 0xa0;
}

/**
 * Where the typed text of a prompt's field ends (in units of `text`): at the cursor when what follows it is
 * drawn in faint type unlike the text typed before it, an inline suggestion (fish's autosuggestion,
 * zsh-autosuggestions, prompt_toolkit's) that a key would accept; else the whole text.
 */
function suggestionStart(scan: ScreenScan, text: string, columnAt: readonly number[], cursor: { x: number; y: number }): number {
  const at = columnAt.findIndex((x) => x >= cursor.x);
  if (at <= 0 || columnAt[at] !== cursor.x || text[at] === ' ' || !faint(scan, cursor.x, cursor.y)) return text.length;
  const before = text.slice(0, at).trimEnd();
  if (!before) return text.length;
  const ink = inkAt(scan, cursor.x, cursor.y);
  // The suggestion runs on in its own ink; the text typed before it is drawn otherwise.
  for (let index = at; index < text.length; index++) {
    if (text[index] !== ' ' && inkAt(scan, columnAt[index]!, cursor.y) !== ink) return text.length;
  }
  return inkAt(scan, columnAt[before.length - 1]!, cursor.y) === ink ? text.length : at;
}

/**
 * A field's text without the fill that draws its empty part: a run of underscores from the cursor on (lynx's
 * "Ada_____", the cursor after "Ada") that ends the row or a blank follows. Underscores before the cursor,
 * or with text right after them, were typed. `end` is where the fill stops, in units of `text`.
 */
function fieldText(text: string, columns: ArrayLike<number>, cursorX: number): { value: string; end?: number } {
  for (const fill of text.matchAll(/_{2,}(?=\s|$)/g)) {
    if (columns[fill.index]! >= cursorX) return { value: text.slice(0, fill.index).trimEnd(), end: fill.index + fill[0].length };
  }
  return { value: text.trimEnd() };
}
