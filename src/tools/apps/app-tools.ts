import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { BrowserStart, ProcessExit, StartedApp } from '../../platform/apps.js';
import { windowName, seenBefore, type DesktopWindow, type WindowIdentity } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { resolveWindow, windowRecord, windowsOfProcess } from '../perception/window-records.js';
import { pageInTree } from '../page/page-in-tree.js';
import { chromiumSkipsOnCommandLine } from './command-line-urls.js';
import { pidArgument, windowIdArgument, windowResult } from '../schemas.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';

const launchTimeoutMs = 20_000;

/**
 * Waits for the launched app's first window, then (within the same budget) for the accessibility tree of any of its
 * new windows: those first seen and those it opens meanwhile. A splash screen (SwingSet2's, LibreOffice's) has none,
 * and the app's own windows come after it, from the same process or one it started; the splash may close as they
 * open, or stay (LibreOffice's stays up behind its Document Recovery dialog, which oosplash's child soffice.bin
 * shows): the app is the process whose window has a tree. A window the app marks a splash screen is not its window
 * even with a tree (GIMP's, a GTK window, closes ten seconds later as the image window opens), nor is a bare one (no
 * frame, off the taskbar: jEdit's JWindow, which Java cannot mark a splash, and whose tree is one label): each is
 * returned only when nothing else has come by the deadline.
 */
/** What the wait for a launched app found: its windows, the process whose window has a tree, and why there is none. */
interface WaitedApp {
  windows: DesktopWindow[];
  owner: number;
  accessible: boolean;
  missingReason?: string;
  /** The process started ended in failure before it showed a window. */
  failed?: ProcessExit;
}

async function waitForApp(context: ToolContext, started: StartedApp, seen: (window: WindowIdentity) => boolean, deadline: number): Promise<WaitedApp> {
  const pid = started.pid;
  const found = await waitForWindows(context, started, seen, deadline);
  if (found.windows.length === 0) return { ...found, accessible: false };
  const ours = (window: DesktopWindow) =>
    [pid, found.owner].some((root) => window.pid === root || context.desktop.processDescendsFrom(window.pid, root)) ||
    found.windows.some((first) => first.id === window.id);
  let missingReason: string | undefined;
  for (;;) {
    const open = (await context.desktop.windows()).filter((window) => !seen(window) && ours(window));
    const late = Date.now() >= deadline;
    const working = open.filter((window) => !window.splash && !window.bare);
    for (const window of late ? open : working) {
      const tree = await windowTree(context, window, deadline);
      if (tree.accessible) return { windows: late ? open : working, owner: window.pid, accessible: true };
      missingReason ??= tree.missingReason;
    }
    // Windows whose processes draw with a toolkit that has no accessibility (Motif, Tk, Xaw), or with none (Xlib), never get a tree:
    // NEdit's launch waited out the 20 s deadline for one, and so did MuPDF's viewer.
    const hopeless = working.length > 0 && working.every((window) => context.desktop.processWithoutAccessibility(window.pid));
    if (late || hopeless) return { windows: open.length > 0 ? open : found.windows, owner: open[0]?.pid ?? found.owner, accessible: false, ...(missingReason ? { missingReason } : {}) };
    await sleep(150);
  }
}

/**
 * The first new windows of the process started (or of a process it handed over to). A process that ended in failure
 * (a status other than 0, or a signal) with no window is answered at once: a launcher that handed its request to an
 * instance already running exits with 0, and a program that cannot start (a missing module, a bad option) ended with 1
 * at once while the call waited out the whole 20 s for a window that could not come.
 */
async function waitForWindows(context: ToolContext, started: StartedApp, seen: (window: WindowIdentity) => boolean, deadline: number): Promise<Omit<WaitedApp, 'accessible'>> {
  const pid = started.pid;
  let failed: ProcessExit | undefined;
  void started.exited.then((exit) => {
    if (exit.code !== 0) failed = exit;
  });
  while (Date.now() < deadline) {
    const fresh = (await context.desktop.windows()).filter((window) => !seen(window));
    const own = fresh.filter((window) => window.pid === pid || context.desktop.processDescendsFrom(window.pid, pid));
    if (failed && own.length === 0) return { windows: [] as DesktopWindow[], owner: pid, failed };
    // Single-instance apps hand the request to a process already running, and the new window is its.
    const candidates = own.length > 0 ? own : context.desktop.processAlive(pid) ? [] : fresh;
    if (candidates.length > 0) return { windows: candidates, owner: candidates[0]!.pid };
    await sleep(100);
  }
  return { windows: [] as DesktopWindow[], owner: pid };
}

/**
 * One look at the window's tree. An app not on the accessibility bus yet may still register: a Java app shows its
 * splash before its toolkit starts, and the toolkit registers as it starts, so only the deadline tells that it has
 * no accessibility, unless its toolkit has none at all (see waitForApp).
 */
async function windowTree(context: ToolContext, window: DesktopWindow, deadline: number): Promise<{ accessible: boolean; missingReason?: string }> {
  const reading = await context.desktop.readWindow(window, { maxNodes: 20, maxDepth: 2, budgetMs: Math.max(100, deadline - Date.now()) });
  if (reading.root && !reading.missingReason) return { accessible: true };
  return { accessible: false, ...(reading.missingReason ? { missingReason: reading.missingReason } : {}) };
}

/**
 * After the Exec of an app that already runs was started again with urls: single-instance apps pass them to
 * the running process and exit (exit is set, with the launcher's status). A launcher that shows a window of
 * its own instead, or still runs at the deadline, leaves exit unset and is treated as a fresh start.
 */
async function waitForHandOff(
  context: ToolContext,
  launcher: { pid: number; exited: Promise<ProcessExit> },
  runningPid: number,
  seen: (window: WindowIdentity) => boolean,
  deadline: number,
): Promise<{ exit?: ProcessExit }> {
  let exit: ProcessExit | undefined;
  void launcher.exited.then((value) => (exit = value));
  while (Date.now() < deadline) {
    if (exit) break;
    const fresh = (await context.desktop.windows()).filter((window) => !seen(window));
    if (fresh.some((window) => window.pid === launcher.pid || context.desktop.processDescendsFrom(window.pid, launcher.pid))) return {};
    await sleep(100);
  }
  if (!exit) return {};
  // The running instance may open a window for the urls (or a tab in one it has): give a window a moment to map, so the result lists it.
  const settle = Math.min(deadline, Date.now() + 1500);
  while (Date.now() < settle) {
    const fresh = (await context.desktop.windows()).filter((window) => !seen(window) && window.pid === runningPid);
    if (fresh.length > 0) break;
    await sleep(100);
  }
  return { exit };
}

/** A start that ended in failure before any window: its status and its last words, which usually say why. */
function startFailed(name: string, started: StartedApp, exit: ProcessExit): ToolError {
  const ended = exit.code === null ? `was ended by signal ${exit.signal}` : `exited with status ${exit.code}`;
  const said = started.lastOutput();
  return new ToolError(
    `${name} (pid ${started.pid}) ${ended} without showing a window${said ? `; its last output: "${said}"` : ''}; all of its output is in ${started.log}`,
    'no_window',
    { pid: started.pid, exit_code: exit.code, ...(exit.signal ? { signal: exit.signal } : {}) },
  );
}

export const launchApp = defineTool({
  name: 'launch_app',
  capability: 'apps',
  title: 'Launch an app',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Start an app by name: the installed .desktop entry with that exact id, else exact Name, else that Exec program (an entry that runs it ' +
      'without options first), else a program on PATH, else an entry whose name or id contains it; the result names the entry. It starts without ' +
    'taking the focus from the active window (its startup time is 0, so the window manager leaves that window alone; on a desktop with no window active it becomes the active one), and the call waits (up to 20 s) for its ' +
    'window and its accessibility tree. Returns the pid and its windows as list_windows does. With creates_new_application_instance false ' +
    '(default) an app that already runs is returned as it is, and urls given are handed to it (opened_in_running). Browsers start ready for ' +
    'agents: Chromium-based ones with their web content in the accessibility tree (--force-renderer-accessibility), Firefox with accessibility ' +
    'on; a fresh profile the driver owns (a separate instance, removed when it exits) unless --user-data-dir/--profile is given; no first-run ' +
    'pages or background network traffic; --no-sandbox for Chromium only when running as root; the call also waits for the page in the tree ' +
    '(page_ready). electron_debugging_port opens the port the page tool uses.',
  input: z.strictObject({
    name: z.string().min(1).describe('App name ("Calculator"), desktop id ("org.gnome.Calculator") or program ("gnome-calculator", "/usr/bin/xterm").'),
    urls: z
      .array(z.string())
      .optional()
      .describe(
        'Files or URLs to open with it. When the app already runs they are handed to it (its Exec again, which single-instance apps pass to ' +
          'the running one); an app whose desktop entry takes none (no %u/%U/%f/%F) is refused with urls_not_opened, never silently.',
      ),
    additional_arguments: z.array(z.string()).optional().describe('Extra command-line arguments.'),
    electron_debugging_port: z
      .number()
      .int()
      .min(0)
      .max(65_535)
      .optional()
      .describe(
        'Open the browser\'s debugging protocol on this port for the page tool (--remote-debugging-port=N: the DevTools protocol for Chromium-based ' +
          'browsers and Electron apps, WebDriver BiDi for Firefox); 0 lets the browser pick a free port, reported as debugging_port.',
      ),
    creates_new_application_instance: z.boolean().optional().describe('Start another instance even when the app runs (an app that keeps a single instance hands the request to the running one, which the result says). Default false.'),
  }),
  output: z.object({
    pid: z.number(),
    name: z.string(),
    already_running: z.boolean(),
    opened_in_running: z.boolean().describe('The app already ran and the urls were handed to that instance (its launcher passed them on and exited 0).'),
    desktop_entry: z.string().optional().describe('The .desktop id the name matched (absent for a program on PATH).'),
    matched_by: z.enum(['id', 'name', 'program', 'substring']).optional().describe('How the name matched desktop_entry.'),
    accessible: z.boolean(),
    self_activation_suppressed: z.boolean(),
    windows: z.array(windowResult),
    browser: z.enum(['chromium', 'firefox', 'electron']).optional().describe('Set when it was started as a browser (see the description).'),
    debugging_port: z.number().optional().describe('The port its debugging protocol answers on (the page tool finds it by itself).'),
    debugging_protocol: z.enum(['cdp', 'webdriver-bidi']).optional(),
    no_sandbox: z.boolean().optional().describe('Chromium\'s sandbox is off (--no-sandbox), as it refuses to start as root with it.'),
    user_data_dir: z.string().optional().describe('The fresh profile the driver made for it, removed when the browser exits.'),
    page_ready: z.boolean().optional().describe('The page\'s web document reached the accessibility tree before the call returned.'),
    urls_not_opened: z.array(z.string()).optional().describe('urls the browser did not open (Chromium opens no chrome:// page named on its command line; with a debugging port the first is opened over it).'),
  }),
  async handle(args, context) {
    // Throws ToolError: app_not_found, or urls_not_opened for urls the matched entry cannot take.
    const plan = context.desktop.planLaunch(args.name, args.urls ?? [], args.additional_arguments ?? [], { debuggingPort: args.electron_debugging_port });
    const matched = plan.entry ? { desktop_entry: plan.entry.id, matched_by: plan.matchedBy } : {};
    const urls = args.urls ?? [];
    const windowsBefore = await context.desktop.windows();
    // A browser given a fresh profile of its own is a separate instance, whatever runs already.
    const instance = !plan.browser?.profile && plan.entry ? context.desktop.applications(windowsBefore).running.find((app) => app.entry?.id === plan.entry!.id) : undefined;
    const running = args.creates_new_application_instance ? undefined : instance;
    if (running && urls.length === 0) {
      const windows = windowsBefore.filter((window) => window.pid === running.pid);
      return {
        summary: `✅ ${plan.name} is already running (pid ${running.pid}); not started again (pass creates_new_application_instance: true for another instance)`,
        body: windows.map((window) => `${window.id} ${windowName(window)}`).join('\n'),
        structured: {
          pid: running.pid,
          name: plan.name,
          already_running: true,
          opened_in_running: false,
          ...matched,
          accessible: true,
          self_activation_suppressed: true,
          windows: windows.map(windowRecord),
        },
      };
    }
    const activeBefore = windowsBefore.find((window) => window.active)?.id;
    const seen = seenBefore(windowsBefore);
    const deadline = Date.now() + launchTimeoutMs;
    const started = await plan.start(context.cwd);
    // Asked for another instance, a single-instance app's launcher hands its request to the one running and exits.
    const receiver = running ?? instance;
    const { exit } = receiver ? await waitForHandOff(context, started, receiver.pid, seen, deadline) : {};
    // A launcher that failed while another instance was asked for is a start that failed, as told below.
    if (receiver && exit && (running || exit.code === 0)) {
      if (exit.code !== 0) {
        throw new ToolError(
          `${plan.name} already runs (pid ${receiver.pid}) and did not take the urls: its launcher (pid ${started.pid}) exited with ` +
            `${exit.code === null ? `signal ${exit.signal}` : `status ${exit.code}`}; its output is in ${started.log}`,
          'urls_not_opened',
          { pid: receiver.pid, launcher_pid: started.pid },
        );
      }
      const windows = (await context.desktop.windows()).filter((window) => window.pid === receiver.pid);
      const handed = urls.length === 0 ? 'its request' : urls.length === 1 ? 'the url' : `${urls.length} urls`;
      return {
        summary: args.creates_new_application_instance
          ? `✅ ${plan.name} keeps a single instance: its launcher (pid ${started.pid}) handed ${handed} to the one running (pid ${receiver.pid}) and exited; no other instance was started`
          : `✅ ${plan.name} is already running (pid ${receiver.pid}); handed it ${handed} to open`,
        body: windows.map((window) => `${window.id} ${windowName(window)}`).join('\n'),
        structured: {
          pid: receiver.pid,
          name: plan.name,
          already_running: true,
          opened_in_running: urls.length > 0,
          ...matched,
          accessible: true,
          self_activation_suppressed: !windows.some((window) => window.active && window.id !== activeBefore),
          windows: windows.map(windowRecord),
        },
      };
    }
    // Otherwise the launcher became an instance of its own (the app is not single-instance): a start like any other.
    const waited = await waitForApp(context, started, seen, deadline);
    if (waited.windows.length === 0) {
      const alive = context.desktop.processAlive(started.pid);
      if (waited.failed) throw startFailed(plan.name, started, waited.failed);
      // One that exited with 0 is told as one that failed is, its last words with it: Notepadqq, run as root, says it
      // will not run as root unless --allow-root and exits with 0, and the call said only where its output was.
      if (!alive) throw startFailed(plan.name, started, await started.exited);
      throw new ToolError(
        `${plan.name} (pid ${started.pid}) started but showed no window within ${launchTimeoutMs / 1000} s; it keeps running (stop it with kill_app); its output is in ${started.log}`,
        'no_window',
        { pid: started.pid },
      );
    }
    let windowsNow = await context.desktop.windows();
    // Every new window of the app now: the ones first seen, and any it opened while its tree was awaited.
    const ofApp = (window: DesktopWindow) =>
      waited.windows.some((candidate) => candidate.id === window.id) || (!seen(window) && (window.pid === waited.owner || context.desktop.processDescendsFrom(window.pid, waited.owner)));
    let mine = windowsNow.filter(ofApp);
    // GTK4 apps present themselves with a fresh timestamp and the window manager gives them the focus:
    // give it straight back to the window that had it (the seed's focus-steal demotion).
    const stole = activeBefore !== undefined && mine.some((window) => window.active);
    if (stole) {
      const previous = windowsNow.find((window) => window.id === activeBefore);
      if (previous) await context.desktop.activateWindow(previous);
      windowsNow = await context.desktop.windows();
      mine = windowsNow.filter(ofApp);
    }
    const activeNow = windowsNow.find((window) => window.active)?.id;
    const suppressed = activeBefore === undefined ? !mine.some((window) => window.active) : activeNow === activeBefore;
    const browser = plan.browser ? await browserReadiness(context, plan.browser, waited.owner, mine, args.electron_debugging_port, urls, deadline) : undefined;
    // The page's title reaches the window once the page has loaded: list the windows as they are now.
    if (browser) mine = (await context.desktop.windows()).filter((window) => mine.some((candidate) => candidate.id === window.id));
    return {
      summary:
        `✅ started ${plan.name} (pid ${waited.owner}) with ${mine.length} window${mine.length === 1 ? '' : 's'}` +
        `${waited.accessible ? '' : waited.missingReason ? `; ${waited.missingReason}` : '; its accessibility tree did not appear (the app may not support accessibility)'}` +
        // With no window active before, the window manager gives the first window the focus: there was none to keep it.
        `${suppressed ? '' : activeBefore === undefined ? '; it is the active window, as no window was active before' : '; it took the focus'}${browser ? `; ${browser.summary}` : ''}`,
      body: mine.map((window) => `${window.id} ${windowName(window)} ${window.bounds.width}x${window.bounds.height}`).join('\n'),
      structured: {
        pid: waited.owner,
        name: plan.name,
        already_running: false,
        opened_in_running: false,
        ...matched,
        accessible: waited.accessible,
        self_activation_suppressed: suppressed,
        windows: mine.map(windowRecord),
        ...browser?.fields,
      },
    };
  },
});

/**
 * After a browser's window appeared: the port it opened (the one asked for, or the one it picked for 0) and
 * its page's web document in the accessibility tree, each awaited within the launch's deadline.
 */
async function browserReadiness(
  context: ToolContext,
  browser: BrowserStart,
  pid: number,
  windows: readonly DesktopWindow[],
  port: number | undefined,
  urls: readonly string[],
  deadline: number,
) {
  let endpoint = port !== undefined ? await context.desktop.debuggingEndpoint(pid) : undefined;
  while (port !== undefined && !endpoint && Date.now() < deadline) {
    await sleep(100);
    endpoint = await context.desktop.debuggingEndpoint(pid);
  }
  // Chromium leaves a chrome:// page named on its command line unopened: the first is opened in the window's page over
  // the debugging port where there is one, and the result names those that stay unopened either way.
  const skipped = browser.family === 'chromium' ? urls.filter(chromiumSkipsOnCommandLine) : [];
  let opened: string | undefined;
  if (skipped.length > 0 && endpoint && windows.length > 0) {
    opened = await context.desktop
      .page(windows[0]!)
      .then((page) => page.navigate(skipped[0]!, Math.max(1000, deadline - Date.now())))
      .then((loaded) => loaded.url, () => undefined);
  }
  const unopened = skipped.filter((url) => url !== skipped[0] || opened === undefined);
  const pageReady = windows.length > 0 && (await pageInTree(context, windows[0]!, deadline));
  const notes = [
    ...(endpoint ? [`debugging port ${endpoint.port} (${endpoint.protocol === 'cdp' ? 'DevTools protocol' : 'WebDriver BiDi'})`] : []),
    ...(port !== undefined && !endpoint ? ['its debugging port did not open in time'] : []),
    ...(browser.sandboxDisabled ? ['--no-sandbox, as the driver runs as root'] : []),
    ...(browser.profile ? [`a fresh profile in ${browser.profile}`] : []),
    ...(opened ? [`${skipped[0]} opened over the debugging port, as Chromium opens no such page named on its command line`] : []),
    ...(unopened.length > 0
      ? [
          `${unopened.join(', ')} not opened: Chromium opens no such page named on its command line; open ${unopened.length === 1 ? 'it' : 'each'} with ` +
            `page {action: "navigate"}${endpoint ? '' : ' (launch with electron_debugging_port: 0 for a port)'} or by typing it into the address bar`,
        ]
      : []),
    pageReady ? 'the page is in the accessibility tree' : 'the page did not reach the accessibility tree in time',
  ];
  return {
    summary: notes.join(', '),
    fields: {
      browser: browser.family,
      ...(endpoint ? { debugging_port: endpoint.port, debugging_protocol: endpoint.protocol } : {}),
      no_sandbox: browser.sandboxDisabled,
      ...(browser.profile ? { user_data_dir: browser.profile } : {}),
      page_ready: pageReady,
      ...(unopened.length > 0 ? { urls_not_opened: unopened } : {}),
    },
  };
}

export const killApp = defineTool({
  name: 'kill_app',
  capability: 'apps',
  title: 'Kill an app',
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  description:
    'Force-terminate one process by pid (SIGKILL; unsaved work is lost). Only that process is signalled. Refused (protected_process): init, ' +
    'kernel threads, the driver and every process it runs under (the agent, its shell), the calling process\'s own chain, and the desktop ' +
    'itself (its X server, session bus and what that bus started, the window manager).',
  input: z.strictObject({ pid: pidArgument }),
  output: z.object({ pid: z.number(), killed: z.boolean() }),
  async handle(args, context) {
    const protection = context.desktop.processProtection(args.pid, context.callerPid);
    if (protection) throw new ToolError(`refusing to kill: ${protection}`, 'protected_process', { pid: args.pid });
    if (!context.desktop.processAlive(args.pid)) throw new ToolError(`no process with pid ${args.pid}`, 'no_such_process');
    try {
      process.kill(args.pid, 'SIGKILL');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ToolError(code === 'EPERM' ? `not allowed to kill pid ${args.pid} (another user's process)` : `could not kill pid ${args.pid}: ${code}`, 'kill_failed');
    }
    const deadline = Date.now() + 3000;
    const gone = () => !context.desktop.processAlive(args.pid);
    while (!gone() && Date.now() < deadline) await sleep(20);
    if (!gone()) return { summary: `⚠️ sent SIGKILL to pid ${args.pid}, it has not exited yet`, structured: { pid: args.pid, killed: false } };
    // The window manager drops a dead client's windows only after the X server has noticed its connection close,
    // which under load lags the exit by tens of milliseconds: a launch_app or list_windows in that gap would
    // take the dead app's window for a live one (and launch_app would answer already_running with the dead pid).
    const listed = async () => (await context.desktop.windows().catch(() => [])).filter((window) => window.pid === args.pid).length;
    let left = await listed();
    while (left > 0 && Date.now() < deadline) {
      await sleep(20);
      left = await listed();
    }
    const summary = left === 0 ? `✅ killed pid ${args.pid}` : `✅ killed pid ${args.pid}; the window manager still lists ${left} window(s) of it`;
    return { summary, structured: { pid: args.pid, killed: true } };
  },
});

export const bringToFront = defineTool({
  name: 'bring_to_front',
  capability: 'apps',
  title: 'Bring a window to the front',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Activate a window (raise it and give it the keyboard focus) through the window manager, so later foreground input lands on it without ' +
    'activating it per call. Without window_id, the front-most window of pid.',
  input: z.strictObject({ pid: pidArgument.optional().describe('Target process ID; optional with window_id, which names the window.'), window_id: windowIdArgument.optional() }),
  output: z.object({ window_id: z.number(), active: z.boolean() }),
  async handle(args, context) {
    if (args.window_id === undefined && args.pid === undefined) throw new ToolError('bring_to_front needs pid or window_id (list_windows has both)', 'missing_pid');
    const window = args.window_id !== undefined ? await resolveWindow(context, args.window_id, args.pid) : (await windowsOfProcess(context, args.pid!))[0]!;
    const active = await context.desktop.activateWindow(window);
    return {
      summary: active ? `✅ window ${window.id} ${windowName(window)} is active` : `⚠️ the window manager did not activate window ${window.id}`,
      structured: { window_id: window.id, active },
    };
  },
});
