import { z } from 'zod';
import { normaliseWhitespace, typedSpelling } from '../../cup/text.js';
import type { CupNode } from '../../cup/types.js';
import { ToolError } from '../../errors.js';
import type { ChangeReason } from '../../platform/desktop.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { pidArgument, windowIdArgument, windowResult } from '../schemas.js';
import { cancelledBy } from '../plan/cancellation.js';
import { defineTool } from '../tool.js';
import { desktopSelectorArgument, matchDesktop, parseDesktopSelector, type DesktopSelector } from './desktop-selector.js';
import { insteadSentence, matchedInstead, matchLine, matchRecord, matchResult, nearestNames, type MatchResult } from './element-matches.js';
import { exitedProcess, resolveWindow, windowRecord } from './window-records.js';
import { indexOf, partialReason, readNumbered, rememberReading, type NumberedReading } from './window-snapshot.js';

const DEFAULT_TIMEOUT_MS = 5000;
export const MAX_WAIT_FOR_TIMEOUT_MS = 50_000;
/** Apps that send no events for a change are still seen, this often; the first answer otherwise comes from events. */
const RECHECK_MS = 1000;
/** Looks in a row that must read an element gone, each while the app changed the window, before that is believed. */
const GONE_LOOKS_WHILE_CHANGING = 6;
const MAX_RETURNED_MATCHES = 50;
const walkBudgetMs = 10_000;

type WokenBy = 'start' | ChangeReason | 'recheck';

interface WindowLook {
  window: DesktopWindow;
  reading: NumberedReading;
  matches: CupNode[];
}

/** One look at the desktop: the windows' titles and, for a selector, each read window and its matches. */
interface Look {
  windows: DesktopWindow[];
  titled: DesktopWindow[];
  looks: WindowLook[];
  /** The window named by window_id has closed. */
  windowClosed: boolean;
  satisfied: boolean;
  /** Satisfied by re-reading only what the app's events named (see look). */
  fromEvents: boolean;
  /** Why nothing was seen: the first look had not ended by the deadline (see firstLookLate). */
  unread?: string;
}

interface WaitArgs {
  pid?: number;
  window_id?: number;
  selector?: string;
  gone: boolean;
  window_title?: string;
}

/**
 * Compared as typed (typedSpelling) and without case, as selectors compare names: Ö written as O + U+0308 is Ö, "–" is
 * "-"; and with a run of spaces as one, as the window's tree shows its title: GtkTerm titles its window
 * "GTKTerm - /dev/ttyS0  9600-8-N-1", read `win "GTKTerm - /dev/ttyS0 9600-8-N-1"`, and a wait for that title timed out.
 */
function titleMatches(window: DesktopWindow, wanted: string): boolean {
  const spelled = (text: string) => normaliseWhitespace(typedSpelling(text)).toLowerCase();
  return spelled(window.title).includes(spelled(wanted));
}

/**
 * The windows a title is looked for in: the process's own, when the wait names one (pid, or window_id's process), else
 * every app's. A plan in Transmission that waited for its "Preferences" dialog to go never saw it go while GNOME System
 * Monitor's "Preferences" stayed open, and a wait for "D7" (Zim's notebook) answered with Evince's "d7-manual.pdf" too.
 */
function titledWindows(windows: readonly DesktopWindow[], args: WaitArgs): DesktopWindow[] {
  return args.window_title === undefined ? [] : windows.filter((window) => (args.pid === undefined || window.pid === args.pid) && titleMatches(window, args.window_title!));
}

/** " of pid N" where a title is looked for among one process's windows. */
function whoseTitle(args: WaitArgs): string {
  return args.pid === undefined ? '' : ` of pid ${args.pid}`;
}

/**
 * Looks once. `known` is the window list of the last look, reused when only the app's own events woke the wait
 * (the window list and its titles did not change then: those wake it as 'windows'; asking for it again costs the
 * X round trips of every window).
 *
 * With `byEvents` (the app's events woke a wait for an element to appear), each window is first read from
 * those events alone (TreeLimits.eventsOnly: what they name is re-read, not the whole window), so an element
 * the app just added is seen without waiting for the checks a full read makes. Such a look answers only with
 * matches that were read from the app now: one only kept from an earlier read is not evidence that the app
 * still shows it. Otherwise every window read in part is read again in full.
 */
async function look(context: ToolContext, args: WaitArgs, selector: DesktopSelector | undefined, budgetMs: number, known?: DesktopWindow[], byEvents = false): Promise<Look> {
  const windows = known ?? (await context.desktop.windows());
  const titled = titledWindows(windows, args);
  const titleHolds = args.window_title === undefined || (args.gone ? titled.length === 0 : titled.length > 0);
  let looks: WindowLook[] = [];
  let windowClosed = false;
  let selectorHolds = true;
  let fromEvents = false;
  if (selector) {
    const targets =
      args.window_id !== undefined
        ? windows.filter((window) => window.id === args.window_id)
        : windows.filter((window) => window.pid === args.pid).sort((a, b) => b.zIndex - a.zIndex);
    windowClosed = args.window_id !== undefined && targets.length === 0;
    const limits = { maxNodes: 5000, maxDepth: 1000, budgetMs: Math.min(walkBudgetMs, Math.max(500, budgetMs)) };
    const readLook = async (window: DesktopWindow, eventsOnly: boolean): Promise<WindowLook> => {
      const reading = await readNumbered(context, window, eventsOnly ? { ...limits, eventsOnly } : limits);
      return { window, reading, matches: matchDesktop(reading.root ? [reading.root] : [], selector) };
    };
    looks = await Promise.all(targets.map((window) => readLook(window, byEvents)));
    const partial = looks.some((entry) => entry.reading.current);
    if (partial) {
      const readNow = looks.every(({ reading, matches }) => !reading.current || matches.every((node) => reading.current!.has(indexOf(node))));
      fromEvents = readNow && titleHolds && looks.some((entry) => entry.matches.length > 0);
      if (!fromEvents) looks = await Promise.all(looks.map((entry) => (entry.reading.current ? readLook(entry.window, false) : entry)));
    }
    const count = looks.reduce((sum, entry) => sum + entry.matches.length, 0);
    // A tree that could not be read, or was read only in part, has not shown that the element is gone.
    const allRead = looks.every((entry) => entry.reading.root !== undefined && partialReason(entry.reading) === undefined);
    selectorHolds = args.gone ? count === 0 && (allRead || windowClosed) : count > 0;
  }
  return { windows, titled, looks, windowClosed, satisfied: titleHolds && selectorHolds, fromEvents };
}

/** What a timed-out wait saw last, for the error's details and message. */
function lastSeen(args: WaitArgs, selector: DesktopSelector | undefined, last: Look) {
  const roots = last.looks.flatMap((entry) => (entry.reading.root ? [entry.reading.root] : []));
  const count = last.looks.reduce((sum, entry) => sum + entry.matches.length, 0);
  const still = last.looks.flatMap((entry) => entry.matches.map((node) => `${node.role} ${JSON.stringify(node.name)}`)).slice(0, 5);
  const own = last.windows.filter((window) => window.pid === args.pid).map((window) => window.title);
  const others = last.windows.filter((window) => window.pid !== args.pid).map((window) => window.title);
  // What the name sought is the value or the description of, as find_elements says it: Groovy Console's output pane
  // held "42", and a wait for name~=42 timed out naming only toolbar buttons as the nearest names.
  const seeking = selector && !args.gone && count === 0;
  const [byValue, byDescription] = (['value', 'description'] as const).map((field) => (seeking ? matchedInstead(roots, selector, field) : []));
  return {
    ...(selector ? { count, ...(args.gone ? { still_matching: still } : { nearest_names: nearestNames(roots, selector) }) } : {}),
    ...(byValue!.length > 0 ? { by_value: byValue! } : {}),
    ...(byDescription!.length > 0 ? { by_description: byDescription! } : {}),
    window_titles: args.window_title === undefined ? own : [...own, ...others].slice(0, 20),
    ...(last.windowClosed ? { window_closed: true } : {}),
    unread: [
      ...(last.unread ? [last.unread] : []),
      ...last.looks.flatMap((entry) => {
        const reason = partialReason(entry.reading);
        return reason ? [`window ${entry.window.id}: ${reason}`] : [];
      }),
    ],
  };
}

/** What was last seen, as a timeout or a cancel says it after "last seen: ". */
function lastSeenText(details: ReturnType<typeof lastSeen>): string {
  return [
    'count' in details ? `${details.count} match${details.count === 1 ? '' : 'es'}` : '',
    'nearest_names' in details && details.nearest_names.length > 0 ? `nearest names ${details.nearest_names.map((name) => JSON.stringify(name)).join(', ')}` : '',
    insteadSentence(details.by_value ?? [], details.by_description ?? []).replace(/^; /, ''),
    'still_matching' in details && details.still_matching.length > 0 ? `still there: ${details.still_matching.join(', ')}` : '',
    `windows ${details.window_titles.map((title) => JSON.stringify(title)).join(', ') || 'none'}`,
    ...details.unread,
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * A cancelled wait says who cancelled it (a plan's Escape or watchdog is not the caller) and, as a timeout does,
 * what it last saw: a plan cut in a long wait for a progress dialog to go said only "cancelled by the caller".
 */
function aborted(context: ToolContext, elapsedMs: number, seen?: { args: WaitArgs; selector: DesktopSelector | undefined; look: Look; reads: number }): never {
  const details = seen ? lastSeen(seen.args, seen.selector, seen.look) : undefined;
  throw new ToolError(`the wait was cancelled ${cancelledBy(context.signal)} after ${elapsedMs} ms${details ? `; last seen: ${lastSeenText(details)}` : ''}`, 'cancelled', {
    elapsed_ms: elapsedMs,
    ...(seen ? { reads: seen.reads, ...details } : {}),
  });
}

export const waitFor = defineTool({
  name: 'wait_for',
  capability: 'perception',
  title: 'Wait for an element or a window',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Block until an element matching `selector` appears in the window (all windows of pid when window_id is omitted), or is gone with ' +
    '`gone: true`, and/or until a window whose title contains `window_title` (case-insensitive, a run of spaces as one; a window of pid, or of window_id\'s process, when one is given, e.g. its dialog, else of any app) appears ' +
    '(or is gone). Reacts to the app\'s accessibility events and the window list, not polling. The matches come with element_token values ' +
    'that click and the other actions accept (the windows read are stored as their latest snapshots). Selector as in find_elements. ' +
    `On timeout (default ${DEFAULT_TIMEOUT_MS} ms, at most ${MAX_WAIT_FOR_TIMEOUT_MS}) the error "timeout" says what was last seen: the match count, the ` +
    'nearest element names (and the elements whose value or description holds the name sought) and the window titles.',
  input: z.strictObject({
    pid: pidArgument.optional().describe('Target process ID: its windows are watched when window_id is omitted, and window_title is looked for among its windows only; optional with window_id (its process) or with window_title alone (any app\'s window then).'),
    window_id: windowIdArgument.optional().describe('The window to watch; default every window of pid (front-most first).'),
    selector: desktopSelectorArgument.optional(),
    gone: z.boolean().default(false).describe('Wait until nothing matches the selector (and no window has the title) instead.'),
    window_title: z.string().min(1).max(500).optional().describe('A window whose title contains this (case-insensitive, a run of spaces as one) appears, of pid\'s (or window_id\'s) process when one is given, else of any app; with gone, until none has it.'),
    timeout_ms: z.number().int().min(0).max(MAX_WAIT_FOR_TIMEOUT_MS).default(DEFAULT_TIMEOUT_MS).describe(`Give up after this long (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_WAIT_FOR_TIMEOUT_MS}).`),
  }),
  output: z.object({
    elapsed_ms: z.number(),
    woken_by: z.enum(['start', 'accessibility', 'windows', 'recheck']).describe('start: it already held; accessibility: an event of the app; windows: the window list changed; recheck: the periodic look.'),
    reads: z.number().describe('How many times the desktop was looked at.'),
    from_events: z.boolean().describe('The matches were read from what the app\'s last events named, without a read of the whole window.'),
    count: z.number(),
    matches: z.array(matchResult),
    snapshot_ids: z.array(z.string()),
    windows: z.array(windowResult).describe('The windows whose title matched window_title.'),
    window_closed: z.boolean().optional().describe('With gone: the window named by window_id has closed, and what it held with it.'),
  }),
  async handle(args, context) {
    if (args.selector === undefined && args.window_title === undefined) {
      throw new ToolError('wait_for needs selector, window_title or both', 'invalid_arguments');
    }
    const selector = args.selector === undefined ? undefined : parseDesktopSelector(args.selector);
    if (selector && args.window_id === undefined && args.pid === undefined) {
      throw new ToolError(`wait_for: selector ${JSON.stringify(args.selector)} needs window_id (the window to look in) or pid (every window of it)`, 'missing_window_id');
    }
    const pid = args.window_id !== undefined ? await waitedWindowPid(context, args, args.window_id) : args.pid;
    // A process that has exited shows nothing more: waiting out the timeout for an element of it only hid why.
    if (selector && !args.gone && pid !== undefined && !context.desktop.processAlive(pid)) throw exitedProcess(context, pid);
    // The window's process stands for pid from here on: its other windows are its own in what a timeout says.
    const resolved = { ...args, pid };
    const started = Date.now();
    const deadline = started + args.timeout_ms;
    if (context.signal?.aborted) aborted(context, 0);
    // A wait on a window title watches the window list and every window's title; only a selector needs the app's
    // events (pid 0 has none). An app sends hundreds while it works, and each had the window list read again.
    const watch = await context.desktop.watchChanges(selector ? (pid ?? 0) : 0, { titles: args.window_title !== undefined });
    const stop = () => watch.close();
    context.signal?.addEventListener('abort', stop, { once: true });
    try {
      let wokenBy: WokenBy = 'start';
      let reads = 0;
      let windows: DesktopWindow[] | undefined;
      let last: Parameters<typeof aborted>[2];
      /** Looks in a row that read the element gone while the app changed its window (see below). */
      let absentWhileChanging = 0;
      for (;;) {
        const byApp = wokenBy === 'accessibility';
        const lookStarted = Date.now();
        const looking = look(context, resolved, selector, deadline - Date.now(), byApp ? windows : undefined, byApp && !args.gone);
        // A look that runs past the deadline (a slow app's read) does not hold the answer: the timeout says what the
        // look before saw, or, for the first, that it had not ended. A wait of 0 ms waits for its one look. Under CI's
        // load a first look still reading when the app went busy for 4 s held a 1500 ms wait's answer to 4770 ms.
        const seen = last || args.timeout_ms > 0 ? await beforeDeadline(looking, deadline) : await looking;
        if (!seen) timedOut(args, resolved, selector, last?.look ?? firstLookLate(lookStarted), started, reads);
        windows = seen.windows;
        reads++;
        last = { args: resolved, selector, look: seen, reads };
        if (context.signal?.aborted) aborted(context, Date.now() - started, last);
        if (reads === 1 && selector) refuseTreeless(context, args, seen);
        if (seen.windowClosed && !args.gone) {
          throw new ToolError(`window ${args.window_id} closed while waiting for ${JSON.stringify(args.selector)}`, 'window_gone', { elapsed_ms: Date.now() - started });
        }
        // An element read as gone while its app changed its window may have been read in the middle of the change: rows
        // of a list being refilled, read as the app removed them, had no name and no children, and a wait for a row to
        // be gone answered "nothing matches" with the row there. Such an absence is looked for again.
        // An app that never stops changing (a clock, a spinner) is taken at its word after a few such looks in a row.
        const changedMeanwhile = args.gone && selector !== undefined && !seen.windowClosed && (watch.lastChangeAt ?? 0) >= lookStarted;
        absentWhileChanging = seen.satisfied && changedMeanwhile ? absentWhileChanging + 1 : 0;
        if (seen.satisfied && (!changedMeanwhile || absentWhileChanging >= GONE_LOOKS_WHILE_CHANGING)) return answer(context, resolved, seen, { started, wokenBy, reads });
        const remaining = deadline - Date.now();
        if (remaining <= 0) timedOut(args, resolved, selector, seen, started, reads);
        wokenBy = (await watch.next(Math.min(remaining, RECHECK_MS))) ?? 'recheck';
        if (context.signal?.aborted) aborted(context, Date.now() - started, last);
      }
    } finally {
      context.signal?.removeEventListener('abort', stop);
      watch.close();
    }
  },
});

/**
 * A selector waited for in windows that can never have a tree (their process draws with a toolkit that has no
 * accessibility at all, Tk, Xt/Xaw, Motif, or none) is refused at once: the wait ran out its whole timeout for an
 * element of a Tk window, and one for an element to be gone timed out too, reading "0 matches".
 */
function refuseTreeless(context: ToolContext, args: WaitArgs, seen: Look): void {
  if (seen.looks.length === 0 || !seen.looks.every(({ window, reading }) => !reading.root && context.desktop.processWithoutAccessibility(window.pid))) return;
  const first = seen.looks[0]!;
  const which = seen.looks.length === 1 ? `window ${first.window.id} ("${first.window.title}")` : `none of the ${seen.looks.length} windows of pid ${first.window.pid}`;
  throw new ToolError(
    `${which}: ${first.reading.missingReason ?? 'it has no accessibility tree'}. No element matching ${JSON.stringify(args.selector)} can ever be read there, ${args.gone ? 'nor its absence' : 'so it cannot appear'}; nothing was waited for: ` +
      'wait with window_title for a window the app opens or closes, or compare get_window_state screenshots',
    'no_accessibility',
  );
}

/** What a timeout says when its first look had not ended: the windows are unknown, and nothing was read. */
function firstLookLate(lookStarted: number): Look {
  return { windows: [], titled: [], looks: [], windowClosed: false, satisfied: false, fromEvents: false, unread: `the first look, begun ${Date.now() - lookStarted} ms before, had not ended (the app or the window manager did not answer in time)` };
}

/** The look's answer, or undefined once the deadline passed first (the look goes on, bounded by its read budget). */
async function beforeDeadline(looking: Promise<Look>, deadline: number): Promise<Look | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
  });
  looking.catch(() => undefined);
  try {
    return await Promise.race([looking, late]);
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(args: WaitArgs & { timeout_ms: number }, resolved: WaitArgs, selector: DesktopSelector | undefined, seen: Look, started: number, reads: number): never {
  const details = lastSeen(resolved, selector, seen);
  const what = [args.selector ? `${args.gone ? 'no element matching' : 'an element matching'} ${JSON.stringify(args.selector)}` : '', args.window_title ? `${args.gone ? 'no' : 'a'} window${whoseTitle(resolved)} titled ~${JSON.stringify(args.window_title)}` : '']
    .filter(Boolean)
    .join(' and ');
  throw new ToolError(`timed out after ${args.timeout_ms} ms waiting for ${what}; last seen: ${lastSeenText(details)}`, 'timeout', {
    timeout_ms: args.timeout_ms,
    elapsed_ms: Date.now() - started,
    reads,
    ...details,
  });
}

/**
 * The pid of the window a selector is looked for in. A window this session has read that has closed since holds
 * no element any more: a wait for one to be gone is answered (the look finds the window closed), not refused as
 * window_not_found, as a plan that clicked a dialog's Close and then waited for its button to be gone was. An id
 * never read is still refused, so a mistyped one is not taken for a closed window.
 */
async function waitedWindowPid(context: ToolContext, args: WaitArgs, windowId: number): Promise<number> {
  try {
    return (await resolveWindow(context, windowId, args.pid)).pid;
  } catch (error) {
    const read = args.gone && args.selector !== undefined ? context.state.snapshots.latestForWindow(windowId) : undefined;
    if (error instanceof ToolError && error.code === 'window_not_found' && read && (args.pid === undefined || args.pid === read.pid)) return read.pid;
    throw error;
  }
}

/** The successful result: every window read is stored as its latest snapshot, so the tokens work. */
function answer(context: ToolContext, args: WaitArgs, seen: Look, timing: { started: number; wokenBy: WokenBy; reads: number }) {
  const elapsed = Date.now() - timing.started;
  const matches: MatchResult[] = [];
  const snapshotIds: string[] = [];
  for (const entry of seen.looks) {
    if (!entry.reading.root) continue;
    const { snapshot } = rememberReading(context, entry.window, entry.reading);
    snapshotIds.push(snapshot.id);
    for (const node of entry.matches) if (matches.length < MAX_RETURNED_MATCHES) matches.push(matchRecord(snapshot, entry.window, node));
  }
  const count = seen.looks.reduce((sum, entry) => sum + entry.matches.length, 0);
  const what = [
    args.selector ? `${args.gone ? 'nothing matches' : `${count} match${count === 1 ? '' : 'es'} for`} ${JSON.stringify(args.selector)}${seen.windowClosed ? ` (window ${args.window_id} has closed)` : ''}` : '',
    args.window_title ? (args.gone ? `no window${whoseTitle(args)} titled ~${JSON.stringify(args.window_title)}` : `window ${seen.titled.map((window) => `${window.id} ${JSON.stringify(window.title)} (pid ${window.pid})`).join(', ')}`) : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    summary: `✅ ${what} after ${elapsed} ms (woken by ${timing.wokenBy}, ${timing.reads} read${timing.reads === 1 ? '' : 's'})`,
    body: matches.map(matchLine).join('\n') || undefined,
    structured: {
      elapsed_ms: elapsed,
      woken_by: timing.wokenBy,
      reads: timing.reads,
      from_events: seen.fromEvents,
      count,
      matches,
      snapshot_ids: snapshotIds,
      windows: seen.titled.map(windowRecord),
      ...(seen.windowClosed ? { window_closed: true } : {}),
    },
  };
}
