import { join } from 'node:path';
import { DEFAULT_DIFF_LINES, diffCounts, diffLines, diffSummary, diffTrees, type ChangedNode, type TreeDiff } from '../../cup/index.js';
import { closedDialogLine, closedDialogs, openedDialogLines } from '../../cup/opened-dialogs.js';
import { popupMenuLines } from '../../cup/popup-menus.js';
import type { ChangeWatch } from '../../platform/desktop.js';
import type { ClipboardTakes } from '../../platform/desktop-services.js';
import { heldByDialog } from '../../platform/action-outcome.js';
import { windowName, type DesktopWindow, type WindowIdentity } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { ToolError } from '../../errors.js';
import { privateTempDirectory, writeFileAtomically } from '../files.js';
import { indexOf, readNumbered, rememberReading, type NumberedReading } from '../perception/window-snapshot.js';
import type { ToolOutput } from '../tool.js';
import { appearedWindows, confirmedByClosedWindow, confirmedByOpenedWindows, confirmedByRename, confirmedByRenamedWindows, confirmedWith, withTrees } from './new-windows.js';
import { actionOutput } from './outcome.js';
import { refuseUnderModalDialog } from './modal-dialogs.js';
import { settle } from './settle.js';
import type { ActionResult, Unlisted } from './schemas.js';
import { indexedLabel } from '../../cup/element-label.js';
import type { CupNode } from '../../cup/types.js';
import { inertNotGone } from './behind-dialog.js';
import { keptNotGone, type KeptElement } from './kept-not-gone.js';
import { statesAsInDiff } from './states-as-in-diff.js';
import { withValueOnlyNote } from './value-only.js';
import { clipboardTakenLine, withClipboardTaken } from './clipboard-taken.js';
import { flattenNodes } from '../../tui/ui-node.js';

/** A reading slower than this makes later actions on the window skip their diff unless asked (diff: true)... */
const SLOW_READ_MS = 700;
/**
 * ...for this long after it: then an action reads the window again and so learns whether it is still slow (a page
 * behind a modal dialog reads slowly, the next page in that window may not). Without an end, one slow reading
 * switched the diff off for the rest of the session, as nothing else measured the window again.
 */
const SLOW_READ_HOLDS_MS = 30_000;

/** How long the slow reading that makes this action skip its diff took, when one does. */
export function slowReadingMs(last: { ms: number; at: number } | undefined, now: number): number | undefined {
  return last && last.ms > SLOW_READ_MS && now - last.at < SLOW_READ_HOLDS_MS ? last.ms : undefined;
}

// The limits get_window_state reads with, on a shorter budget: two reads bracket every action.
export const READ_LIMITS = { maxNodes: 5000, maxDepth: 1000, budgetMs: 5000 };

/**
 * The readings around an action leave hidden containers' content unread where the window is walked on every reading
 * (TreeLimits.hiddenContentUnread): KeePassXC's stacked pages made its click read 2 s before and 2 s after, for
 * content no agent can act on. Both readings leave it so, so a page brought forward shows as its elements added.
 */
const DIFF_READ_LIMITS = { ...READ_LIMITS, hiddenContentUnread: true };

/**
 * The reading before an action applies the events the app sent since the window was last read and leaves the
 * checks for what apps change unannounced (child counts, boxes) to the reading after, which makes them: those
 * checks are most of a reading's calls, and the reading before is on the action's path. What an app changed
 * unannounced after the last reading and before the action then shows in the action's diff too: it is a change
 * since what the agent last saw, found by the first reading that looks.
 */
export const BEFORE_ACTION_LIMITS = { ...DIFF_READ_LIMITS, eventsOnly: true };

type DiffResult = NonNullable<ActionResult['diff']>;

/** The structured diff: a removed node's index is the old snapshot's, so it is named was_index, never index. */
function diffResult(diff: TreeDiff, shown: TreeDiff, lines: number, truncated: boolean, partial: boolean): DiffResult {
  return {
    changed: shown.changed,
    added: shown.added,
    removed: shown.removed.map(({ index, ...rest }) => ({ was_index: index, ...rest })),
    moved: shown.moved,
    ...(shown.inert ? { inert: shown.inert } : {}),
    ...(shown.back ? { back: shown.back.map(({ dialog, count }) => ({ dialog: { was_index: dialog.index, role: dialog.role, name: dialog.name }, count })) } : {}),
    counts: diffCounts(diff),
    lines,
    truncated,
    ...(partial ? { partial: true } : {}),
  };
}

/** Writes the whole diff where a long one is kept: this user's private temp directory, named after the snapshot it indexes. */
function writeWholeDiff(snapshotId: string, window: DesktopWindow, diff: TreeDiff): string {
  const path = join(privateTempDirectory('diffs'), `${snapshotId}.txt`);
  const header = `# diff of window ${window.id} ${windowName(window)} (pid ${window.pid}); [eN] are element indices of snapshot ${snapshotId}`;
  writeFileAtomically(path, `${[header, ...diffLines(diff)].join('\n')}\n`, { replace: 'any' });
  return path;
}

export interface Compared {
  fields: Pick<ActionResult, 'snapshot_id' | 'diff' | 'diff_file' | 'diff_unavailable' | 'new_windows' | 'other_windows_changed'>;
  lines: string[];
  /** Dialogs the diff shows opened or closed inside the window and menus opened or closed in popups over it, a line each (see openedDialogLines, closedDialogLines, popupMenuLines). */
  dialogs?: string[];
  /** The indices (in the snapshot before) of the dialogs the action closed inside the window and of all they held. */
  closedInside?: ReadonlySet<number>;
  /** What the diff shows turned shown or hidden, in one line (see shownOrHiddenLine). */
  shownOrHidden?: string;
  /** The elements the diff shows added and shown, in one line, where both readings were whole (see addedLine). */
  added?: string;
  /** Every element the diff shows changed, not only those its lines say. */
  changed?: readonly ChangedNode[];
  /** The label of the element at this index in the snapshot the reading after made. */
  labelAt?: (index: number) => string | undefined;
  /** The label of the element with this identity (WindowReading.identities) in the snapshot the reading after made. */
  labelOf?: (identity: string) => string | undefined;
  /** The indices of the elements the diff shows added, all of them (the diff's lines say the first few). */
  addedIndices?: ReadonlySet<number>;
  /**
   * The element at this index in the snapshot the reading after made, when it is shown there with the role and name it
   * had before (see keptNotGone): its label, and whether another object holds the index than before.
   */
  keptAt?: (index: number) => KeptElement | undefined;
  /** The tree the reading after read. */
  after?: CupNode;
}

/**
 * Reads the window again (unless it closed, or had no tree before) and compares it with `before`; `windows`
 * is the desktop's window list now. Used after one action (`rightAfter`) and after a whole plan.
 */
export async function compareWithNow(context: ToolContext, window: DesktopWindow, before: NumberedReading, windows: readonly DesktopWindow[], rightAfter = false, reading?: Promise<NumberedReading>): Promise<Compared> {
  const stillOpen = windows.some((candidate) => candidate.id === window.id);
  const after = before.root && stillOpen ? await (reading ?? readAfter(context, window, rightAfter)) : before;
  return compare(context, window, before, after, stillOpen);
}

/** The reading after an action (`rightAfter`: one action, just now) or a plan, to compare with the one before it. */
function readAfter(context: ToolContext, window: DesktopWindow, rightAfter: boolean): Promise<NumberedReading> {
  // Right after one action's first effects, with no settle asked, the reading comes before the toolkit's next
  // layout (GTK3 lays out a frame later): the boxes it would check are still where they were, and checking them
  // is most of its calls. After a settle, or a plan's steps, the app has had its time, and they are checked.
  const limits = rightAfter && context.state.config.get().diff_settle_ms === 0 ? { ...DIFF_READ_LIMITS, boxesLater: true } : DIFF_READ_LIMITS;
  return readNumbered(context, window, limits);
}

/**
 * The after-reading becomes the window's snapshot, so every [eN] of the diff is an element_index the next call can
 * use; both readings are in the window's numbering, so an element that stayed keeps the index the agent has.
 */
function compare(context: ToolContext, window: DesktopWindow, before: NumberedReading, after: NumberedReading, stillOpen: boolean): Compared {
  if (!before.root) return { fields: { diff_unavailable: `no tree before the action: ${before.missingReason ?? 'none was read'}` }, lines: [] };
  if (!stillOpen) return { fields: { diff_unavailable: `the window closed (window ${window.id} ${windowName(window)})` }, lines: [] };
  if (!after.root) return { fields: { diff_unavailable: `no tree after the action: ${after.missingReason ?? 'none was read'}` }, lines: [] };
  const { snapshot } = rememberReading(context, window, after);
  const diff = diffTrees(before, after);
  const summary = diffSummary(diff, DEFAULT_DIFF_LINES);
  const file = summary.truncated ? writeWholeDiff(snapshot.id, window, diff) : undefined;
  const partial = before.truncated || after.truncated;
  const heading =
    summary.total === 0
      ? `diff: no change in the window's tree (snapshot ${snapshot.id})`
      : `diff (indices of snapshot ${snapshot.id}${partial ? '; a reading was cut short, so nodes past the cut may show as added or removed' : ''}):`;
  const closed = closedDialogs(diff, before.root);
  const byIdentity = new Map([...after.identities].map(([index, identity]) => [identity, index]));
  const labelAt = (index: number) => {
    const element = snapshot.elements.get(index);
    return element && indexedLabel(element);
  };
  const labelOf = (identity: string) => labelAt(byIdentity.get(identity) ?? -1);
  // Built at the first question only: most actions' evidence says nothing gone.
  let beforeById: Map<string, CupNode> | undefined;
  const keptAt = (index: number) => {
    beforeById ??= new Map(before.root ? flattenNodes([before.root]).map((node) => [node.id, node]) : []);
    const [was, now] = [beforeById.get(`e${index}`), snapshot.elements.get(index)];
    if (!was || !now || now.states?.includes('hidden') || was.role !== now.role || was.name !== now.name) return undefined;
    return { label: indexedLabel(now), anew: before.identities.get(index) !== after.identities.get(index) };
  };
  return {
    changed: diff.changed,
    labelAt,
    labelOf,
    addedIndices: new Set(diff.added.map((entry) => entry.index)),
    keptAt,
    after: after.root,
    fields: {
      snapshot_id: snapshot.id,
      diff: diffResult(diff, summary.shown, summary.total, summary.truncated, partial),
      ...(file ? { diff_file: file } : {}),
    },
    lines: [heading, ...summary.lines, ...(file ? [`whole diff: ${file}`] : [])],
    dialogs: [...openedDialogLines(diff, after.root), ...closed.map(closedDialogLine), ...popupMenuLines(diff, before.root, after.root)],
    closedInside: new Set(flattenNodes(closed).map(indexOf)),
    shownOrHidden: shownOrHiddenLine(diff),
    added: before.current || partial ? undefined : addedLine(diff, (index) => snapshot.elements.get(index)?.states),
  };
}

/** Waits for the app to be quiet after an action: the session's diff_settle_ms, or a plan step's longer settle. */
function settleAfter(context: ToolContext, watch: ChangeWatch): Promise<number> {
  const quietMs = context.state.config.get().diff_settle_ms;
  const step = context.stepSettle;
  if (step && step.quietMs > quietMs) return settle(watch, step.quietMs, context.signal, step.maxMs);
  return settle(watch, quietMs, context.signal);
}

/** throughPage: the action goes through the browser's debugging protocol, which answers whatever its accessibility does. */
type ObservedOptions = { diff?: boolean; element_index?: number; element_token?: string; delivery_mode?: string; throughPage?: boolean };

/**
 * The elements the two readings around the action show as turned shown or hidden: "[e43] button "Show details" shown,
 * [e37] button "Show summary" hidden". Undefined when none did.
 */
function shownOrHiddenLine(diff: TreeDiff): string | undefined {
  const flips = diff.changed.flatMap((entry) => {
    const states = entry.changes.states;
    const turned = states?.added.includes('hidden') ? 'hidden' : states?.removed.includes('hidden') ? 'shown' : undefined;
    return turned && entry.role !== 'generic' ? [`${indexedLabel(entry)} ${turned}`] : [];
  });
  return treeAfterLine(flips);
}

/** One line of what the reading after the action shows, its first four said and the rest counted; undefined for none. */
function treeAfterLine(told: readonly string[]): string | undefined {
  if (told.length === 0) return undefined;
  return `the window's tree after the action: ${told.slice(0, 4).join(', ')}${told.length > 4 ? `, and ${told.length - 4} more` : ''}`;
}

/**
 * The named elements the reading after holds, shown, that the reading before did not: "[e19] text "Copied" added".
 * Undefined when there are none. Only where the reading before read every element from the app (no live mirror's
 * events-only reading, which leaves what the app changed unannounced since the last reading to the reading after),
 * and neither reading was cut short: an element added then was added between the two readings.
 */
function addedLine(diff: TreeDiff, statesOf: (index: number) => readonly string[] | undefined): string | undefined {
  const shown = diff.added.filter((entry) => {
    const states = statesOf(entry.index) ?? [];
    return entry.name !== '' && entry.role !== 'generic' && !states.includes('hidden') && !states.includes('offscreen');
  });
  return treeAfterLine(shown.map((entry) => `${indexedLabel(entry)} added`));
}

/**
 * Elements added while the app sent no event from the reading before until the action settled are evidence of the
 * action, which came between the two readings: libadwaita shows a toast ("Character copied to clipboard" after GNOME
 * Characters' Copy Character) with no event, and the click read "no effect seen" with advice to click again in the
 * foreground, over a diff that showed the toast. An app that sent events was judged by them (its own changes, a
 * clock's or a log's, set apart), and is not.
 */
function confirmedByAdded(result: ActionResult, line: string | undefined, silent: boolean): ActionResult {
  return silent ? confirmedWith(result, line ? [line] : []) : result;
}

/**
 * An element the action showed or hid is evidence of its effect where the app announced nothing: GTK 4.8 switches a
 * stack back to a page it drew before (a Back button, a tab) with no event at all, since the page keeps its place, and
 * the click was reported as no effect. Only a change the window's own hit test found (see undrawn-places.ts) or the
 * toolkit's states say, read before and after the action.
 */
function confirmedByShownOrHidden(result: ActionResult, line: string | undefined): ActionResult {
  return confirmedWith(result, line ? [line] : []);
}

/**
 * The dialogs the action opened or closed inside its window (and the popup menus over it) are evidence of its effect,
 * as a window it opened is: said first, and a click whose first effects did not show one (a browser puts a JavaScript
 * alert in the tree after the click's own focus change) is confirmed by it.
 */
function confirmedByOpenedDialogs(result: ActionResult, dialogs: readonly string[], closedInside: ReadonlySet<number> = new Set()): ActionResult {
  if (dialogs.length === 0 || result.path === 'none' || result.cancelled) return result;
  const evidence = [...dialogs, ...(result.evidence ?? []).filter((line) => !dialogs.includes(line) && !closedInside.has(indexLeading(line)))];
  if (result.effect === 'confirmed' || result.refuted) return { ...result, evidence };
  return { ...result, effect: 'confirmed', verified: true, escalation: undefined, evidence };
}

/**
 * The index an evidence line begins with ("[e280] dialog ...: child removed"), else -1. A dialog's closing line stands
 * for what its objects did on the way out, as a closed window's does: an Escape that closed a page's <dialog> went on
 * with "[e280] dialog "Profile": child removed", "[e283] form: child removed" and "[e286] textbox "Nickname": -foc".
 */
function indexLeading(line: string): number {
  const match = /^\[e(\d+)\] /.exec(line);
  return match ? Number(match[1]) : -1;
}

/**
 * The evidence names an object the agent's snapshot did not hold by its role and name (a menu's item the click
 * showed); the diff beside it names the same object by its index in the snapshot taken after the action. The
 * evidence then names it so too: "(not in the snapshot) menu item "New"" beside "+ [e55] menuitem "New"" read as two.
 * Such objects the diff shows added are one line saying so, in the place of the first: what the app did to them on the
 * way (named, described, shown) is their making, not a change. MATE Calculator's Mode > Advanced read '[e257] button
 * "factor": -off, renamed (its name before is unknown), description is now "Factorize [Ctrl+F]"' and four more such lines
 * of the buttons the mode made.
 */
function namedAsInDiff(result: ActionResult, labelOf: Compared['labelOf'], added: ReadonlySet<number> = new Set()): ActionResult {
  const { unlisted } = result as Unlisted;
  if (!unlisted || !labelOf || !result.evidence) return result;
  const labels = [...unlisted].flatMap(([label, identity]) => {
    const now = identity ? labelOf(identity) : undefined;
    return now ? [[label, now] as const] : [];
  });
  if (labels.length === 0) return result;
  const relabelled = (line: string) => labels.reduce((named, [label, now]) => named.replaceAll(label, now), line);
  const made: string[] = [];
  const evidence: string[] = [];
  let madeAt = -1;
  for (const line of result.evidence) {
    const of = labels.find(([label, now]) => line.startsWith(`${label}: `) && added.has(indexLeading(now)));
    if (!of) evidence.push(relabelled(line));
    else {
      if (madeAt < 0) madeAt = evidence.push('') - 1;
      made.push(of[1]);
    }
  }
  if (madeAt >= 0) evidence[madeAt] = `${made.join(', ')} added`;
  return { ...result, evidence };
}

/**
 * Runs one action between two readings of its window and returns its result with what changed (`diff`,
 * the new `snapshot_id`) and the trees of windows it opened. `diff: false` runs the action alone.
 *
 * `run` is given `ready`, which resolves once the reading before and the checks on it are done and rejects when they
 * refuse the action. Unless `overlaps`, `run` starts only then. An action that `overlaps` starts at once and must
 * await `ready` before it sends anything: what it only reads meanwhile (its element, the field's text, the open menus)
 * is then off the action's path. Real typing waited for a reading that changes nothing it needs.
 */
export async function observeAction(
  context: ToolContext,
  tool: string,
  options: ObservedOptions,
  window: DesktopWindow,
  run: (ready: Promise<void>) => Promise<ActionResult>,
  overlaps = false,
): Promise<ToolOutput<ActionResult>> {
  // From the reading before to the reading after, what the app changes is this action's doing, not its own.
  const over = await context.desktop.actionUnderway(window.pid);
  try {
    // A window that took long to read (a big office document) is not read twice around every key by default:
    // the readings would cost more than the action, and keep a busy app from answering what comes next.
    const lastReadMs = slowReadingMs(context.state.diffReadMs.get(window.id), Date.now());
    const skippedAsSlow = options.diff === undefined && lastReadMs !== undefined;
    const readStarted = Date.now();
    // Heard from before the action is sent (ready awaits it) until its result: see clipboard-taken.ts.
    let clipboardTakes: ClipboardTakes | undefined;
    const checked = (async () => {
      const [known, before, clipboard] = await Promise.all([
        context.desktop.windows(),
        options.diff === false || skippedAsSlow ? undefined : readNumbered(context, window, BEFORE_ACTION_LIMITS),
        context.desktop.watchClipboardTakes().catch(() => undefined),
      ]);
      clipboardTakes = clipboard;
      refuseUnderModalDialog(tool, window, known);
      // A reading the app left unanswered measured the call timeout, not the window: counted, it made every action in
      // the 30 s after a hung (or stopped, then resumed) app's refusal skip its diff as "slow to read".
      if (before && !before.unresponsive) context.state.diffReadMs.set(window.id, { ms: Date.now() - readStarted, at: Date.now() });
      // An app that did not answer the reading would not answer an action on one of its elements, nor one in the
      // background (which goes through its accessibility: the focused element, the object under a point): one
      // wait, not two or three. Real input (foreground keys and clicks) needs no answer and still goes.
      const throughApp = !options.throughPage && (options.element_index !== undefined || options.element_token !== undefined || options.delivery_mode !== 'foreground');
      if (before?.unresponsive && throughApp) throw new ToolError(`${tool}: ${before.missingReason ?? 'the app did not answer'}; nothing was sent`, 'app_not_responding', { pid: window.pid });
      // The platform's verification waits for the action's first effects; the app may go on changing after them.
      const watch = before ? await context.desktop.watchChanges(window.pid).catch(() => undefined) : undefined;
      return { known, before, watch };
    })();
    const ready = checked.then(() => undefined);
    // An overlapping action that failed before it awaited `ready` leaves the refusal unheard: its own error is thrown.
    ready.catch(() => undefined);
    const running = overlaps ? run(ready) : undefined;
    running?.catch(() => undefined);
    const { known, before, watch } = await checked.catch(async (error: unknown) => {
      // An overlapping action sends nothing once `ready` rejected; it is let end before the refusal is returned.
      await running?.catch(() => undefined);
      await clipboardTakes?.close();
      throw error;
    });
    let result: ActionResult;
    // Whether the app sent no event from the reading before until the action settled (see confirmedByAdded).
    let silent = false;
    try {
      result = await (running ?? run(ready));
      if (watch) result = { ...result, settled_ms: await settleAfter(context, watch) };
      silent = watch !== undefined && watch.lastChangeAt === undefined;
      result = withClipboardTaken(result, await clipboardTakenLine(context, clipboardTakes, window.pid));
    } finally {
      watch?.close();
      await clipboardTakes?.close();
    }
    // The reading after goes out with the window list, which says whether the window is still there to read: the
    // window manager and the app answer side by side. A reading of a window found closed is left unused.
    const afterStarted = Date.now();
    // How long the reading itself took, not the opened windows' trees read beside it (see diffReadMs below).
    let afterMs: number | undefined;
    const reading = before?.root && !result.cancelled ? readAfter(context, window, true).finally(() => (afterMs = Date.now() - afterStarted)) : undefined;
    reading?.catch(() => undefined);
    const windowsAfter = await context.desktop.windows();
    const effects = await windowEffects(context, window, known, windowsAfter, watch, result.new_windows);
    result = heldByDialog(confirmedByOpenedWindows({ ...result, ...effects }, window.pid), window.pid);
    result = confirmedByRenamedWindows(result, window, known, windowsAfter);
    result = confirmedByClosedWindow(result, window, windowsAfter);
    // The app's other windows it renamed are among those it changed.
    const elsewhere = { ...effects, ...(result.other_windows_changed ? { other_windows_changed: result.other_windows_changed } : {}) };
    // A cancelled call returns at once: the reading after would delay the stop (a plan's own diff covers its steps).
    if (before && result.cancelled) {
      return actionOutput(tool, { ...result, ...elsewhere, diff_unavailable: 'the action was cancelled part-way, so the window was not read after it; get_window_state reads it now' });
    }
    if (!before) {
      const slow = skippedAsSlow ? { diff_unavailable: `the window took ${lastReadMs} ms to read, so actions on it skip the diff for a while (it is read again ${SLOW_READ_HOLDS_MS / 1000} s after); pass diff: true for one now` } : {};
      return actionOutput(tool, { ...result, ...elsewhere, ...slow });
    }
    const compared = await compareWithNow(context, window, before, windowsAfter, true, reading);
    // The window is as slow to read as the faster of the two readings: the one before may have paid once for what no
    // reading had read yet (the items of menus a compact read leaves closed), and a window slow to read is slow in both.
    const readMs = afterMs ?? Date.now() - afterStarted;
    const beforeMs = context.state.diffReadMs.get(window.id)?.ms ?? readMs;
    context.state.diffReadMs.set(window.id, { ms: Math.min(beforeMs, readMs), at: Date.now() });
    const renamed = before.root ? compared.fields.diff?.changed.find((entry) => entry.index === indexOf(before.root!))?.changes.name : undefined;
    if (renamed) result = confirmedByRename(result, window.id, renamed.from, renamed.to);
    result = confirmedByShownOrHidden(result, compared.shownOrHidden);
    result = confirmedByAdded(result, compared.added, silent);
    result = namedAsInDiff(result, compared.labelOf, compared.addedIndices);
    result = inertNotGone(result, before.root, compared.after);
    if (compared.keptAt) result = keptNotGone(result, compared.keptAt);
    if (compared.changed && compared.labelAt) result = statesAsInDiff(result, compared.changed, compared.labelAt);
    return actionOutput(tool, withValueOnlyNote(tool, { ...confirmedByOpenedDialogs(result, compared.dialogs ?? [], compared.closedInside), ...elsewhere, ...compared.fields }, compared.after), compared.lines);
  } finally {
    over();
  }
}

/**
 * What an action or a plan did outside its window's diff: the top-level windows it opened, each with its tree
 * (`reported`: those the backend saw its app open), and the app's other windows whose trees its changes touched
 * (`watch` heard them; windows the driver mirrors only, which keeps it to a lookup per changed object).
 */
export async function windowEffects(
  context: ToolContext,
  window: DesktopWindow | undefined,
  known: readonly WindowIdentity[],
  windowsAfter: readonly DesktopWindow[],
  watch: ChangeWatch | undefined,
  reported?: ActionResult['new_windows'],
): Promise<Pick<ActionResult, 'new_windows' | 'other_windows_changed'>> {
  const opened = appearedWindows(known, windowsAfter, reported);
  const skip = new Set([...(window ? [window.id] : []), ...opened.map((entry) => entry.window_id)]);
  const others = ((await watch?.changedWindows()) ?? []).flatMap((id) => {
    const other = windowsAfter.find((candidate) => candidate.id === id);
    return other && !skip.has(id) ? [{ window_id: id, title: other.title, ...(other.accessibleName ? { accessible_name: other.accessibleName } : {}) }] : [];
  });
  return {
    ...(opened.length > 0 ? { new_windows: await withTrees(context, opened, windowsAfter) } : {}),
    ...(others.length > 0 ? { other_windows_changed: others } : {}),
  };
}
