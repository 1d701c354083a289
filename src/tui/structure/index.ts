// From cells to a UI tree. Each heuristic explains some cells and claims them; later heuristics only see
// what is left, and plain text runs come last.
import type { CellGrid } from '../grid.js';
import { flattenNodes, type UINode } from '../ui-node.js';
import { focusActiveBorder, focusActiveWindow, focusAtHiddenCursor } from './active-box.js';
import { assemble } from './assemble.js';
import { findBoxes } from './boxes.js';
import { findButtons } from './buttons.js';
import { findCheckboxes } from './checkboxes.js';
import { findBoxedFields, findCursorInput, findLabelledFields, focusTextAtCursor } from './input.js';
import { findGridMenus } from './grid-menus.js';
import { findKeyHintBars } from './key-hints.js';
import { placeLinks } from './links.js';
import { findLists } from './lists.js';
import { findMenuBar } from './menu-bar.js';
import { findNumberedText } from './numbered-text.js';
import { namePanesByTitles } from './pane-titles.js';
import { findSheetGrids } from './sheet-grid.js';
import { findProgressBars } from './progress.js';
import { area, ScreenScan, type Found, type Region } from './scan.js';
import { findSplits } from './splits.js';
import { findStatusLines } from './status-line.js';
import { findTables } from './tables.js';
import { findTextRuns } from './text-runs.js';

export { BOX_HEURISTIC } from './boxes.js';
export { BUTTON_HEURISTIC } from './buttons.js';
export { CHECKBOX_HEURISTIC } from './checkboxes.js';
export { INPUT_HEURISTIC } from './input.js';
export { GRID_MENU_HEURISTIC } from './grid-menus.js';
export { KEY_HINT_HEURISTIC } from './key-hints.js';
export { LINK_HEURISTIC } from './links.js';
export { LIST_HEURISTIC } from './lists.js';
export { MENU_HEURISTIC } from './menu-bar.js';
export { NUMBERED_TEXT_HEURISTIC } from './numbered-text.js';
export { PROGRESS_HEURISTIC } from './progress.js';
export { SHEET_HEURISTIC } from './sheet-grid.js';
export { STATUS_HEURISTIC } from './status-line.js';
export { TABLE_HEURISTIC } from './tables.js';
export { TEXT_HEURISTIC } from './text-runs.js';

export interface StructureOptions {
  /** Name of the root node: the terminal title, or the command when the program set none. */
  title: string;
}

export function buildStructure(grid: CellGrid, options: StructureOptions): { nodes: UINode[]; focus: string | null } {
  const scan = new ScreenScan(grid);
  const boxes = findBoxes(scan);
  const screenRect = { x: 0, y: 0, w: grid.cols, h: grid.rows };
  const sections = boxes
    .flatMap((box) => box.sections.map((rect) => ({ rect, box: box.node })))
    .sort((a, b) => area(b.rect) - area(a.rect));
  // The screen's region is a literal, not spread like the sections: spreading it too made the heuristics
  // measure a quarter slower on htop's screen.
  let regions: Region[] = [
    { rect: screenRect, background: scan.dominantBackground(screenRect) },
    ...sections.map((section) => ({ ...section, background: scan.dominantBackground(section.rect, section.box.bounds) })),
  ];
  scan.setRegions(regions);
  // A spreadsheet's grid before anything else, splits too: its highlighted row numbers beside its current
  // cell are no columns set apart by a gutter, its row numbers no numbered text, its labels no list.
  const sheets = regions.flatMap((_, index) => findSheetGrids(scan, regions.length - 1 - index));
  // Windows and columns side by side that no box draws; inner regions are painted last, so the list
  // stays ordered from largest to smallest.
  const splits = findSplits(scan);
  if (splits.length) {
    regions = [regions[0]!, ...[...regions.slice(1), ...splits].sort((a, b) => area(b.rect) - area(a.rect))];
    scan.setRegions(regions);
  }

  // The menu bar before the status lines: a highlighted first row of menu words is a menu, not a status.
  let found: Found[] = [...sheets, ...findKeyHintBars(scan, 0), ...findMenuBar(scan, 0), ...findStatusLines(scan, 0)];
  regions.forEach((region, index) => {
    if (region.split === 'window') found.push(...findStatusLines(scan, index));
  });
  // Innermost regions first, so a list inside a dialog is read before the dialog's own text.
  for (let index = regions.length - 1; index >= 0; index--) {
    // A numbered text buffer first: its current-line highlight is not a list's selection.
    found.push(...findNumberedText(scan, index));
    // A dialog's labelled field before lists: a strip under its label is not a selected item.
    found.push(...findLabelledFields(scan, index));
    found.push(...findButtons(scan, index), ...findProgressBars(scan, index), ...findTables(scan, index));
    // Candidates in columns with one lit before lists, which would read its row as text.
    found.push(...findGridMenus(scan, index), ...findLists(scan, index), ...findCheckboxes(scan, index));
  }
  // A title bar read as a status before the lists under it were known: over panes of lists it names them.
  found = namePanesByTitles(scan, found);
  findBoxedFields(scan, boxes);
  found.push(...findCursorInput(scan, flattenNodes(found), boxes));
  for (let index = regions.length - 1; index >= 0; index--) found.push(...findTextRuns(scan, index));
  focusTextAtCursor(scan, flattenNodes(found));
  focusActiveWindow(scan, flattenNodes(found));
  focusAtHiddenCursor(scan, flattenNodes(found));
  focusActiveBorder(scan, boxes, flattenNodes(found));
  found.push(...placeLinks(scan, found));

  return assemble(
    boxes.map((box) => box.node),
    found,
    { cols: grid.cols, rows: grid.rows, title: options.title },
  );
}
