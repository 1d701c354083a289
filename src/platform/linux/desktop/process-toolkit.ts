import { existsSync, readFileSync } from 'node:fs';
import { javaAtkBridge } from './accessible-session.js';
import { processEnvironment } from './processes.js';

/**
 * The UI toolkit a process draws its windows with, told by the shared libraries it has mapped: what an app that is
 * not on the accessibility bus is, so the driver can say why it has no tree and what would give it one (a Java app
 * started without its ATK bridge is not a Motif app, which has no accessibility at all), and which input it takes.
 */
export interface ProcessToolkit {
  /** How messages name it ("Java (AWT/Swing)"). */
  name: string;
  /** Why it has no tree and what would give it one, as a clause. */
  remedy: string;
  /** It drops key events another client sends (SendEvent): keys need real input. */
  ignoresSentKeys: boolean;
  /** It takes sent key events only while its window has the focus (Tk hands keys to its focus window only then). */
  sentKeysOnlyWhenActive: boolean;
  /** It drops sent button events too (it reads the pointer through XInput2). */
  ignoresSentPointer: boolean;
  /** It can be on the accessibility bus at all (false: Motif, Tk, Xaw, FLTK). */
  accessibility: boolean;
}

/** Libraries that name a toolkit, most specific first: a Java app may map GTK for its look and feel. */
const toolkits: readonly { library: RegExp; toolkit: (pid: number) => ProcessToolkit }[] = [
  { library: /\/libjvm\.so$/, toolkit: java },
  { library: /\/libQt[56]Gui\.so/, toolkit: () => switchedOff('Qt', 'relaunch it with QT_ACCESSIBILITY=1 (launch_app sets it)', true) },
  { library: /\/libgtk-4\.so/, toolkit: (pid) => switchedOff('GTK 4', gtk4Remedy(pid), true) },
  { library: /\/libgtk-3\.so/, toolkit: (pid) => switchedOff('GTK 3', gtk3Remedy(pid), true) },
  { library: /\/libgtk-x11-2\.0\.so/, toolkit: () => switchedOff('GTK 2', 'GTK 2 loads its accessibility only when GTK_MODULES=gail:atk-bridge: relaunch it with launch_app, which sets it', true) },
  { library: /\/libXm\.so/, toolkit: () => none('Motif') },
  { library: /\/libtk\d[\d.]*\.so/, toolkit: () => ({ ...none('Tk'), sentKeysOnlyWhenActive: true }) },
  { library: /\/libXaw[37]?\.so/, toolkit: () => none('Xt/Xaw') },
  // FLUID, FLTK's designer, was told as an app with no toolkit that "maps no toolkit", as it maps Xlib beside it.
  { library: /\/libfltk\.so/, toolkit: () => none('FLTK') },
];

/**
 * Libraries through which a process can be on the accessibility bus without naming one of the toolkits above: the
 * bridge and the client library themselves, and the engines of browsers and web views (Chromium and Electron map
 * the bridge, Firefox GTK 3, but a build may map only its engine).
 */
const accessibilityLibraries = /\/lib(atk-bridge|atspi|atk-1\.0|webkit|xul|cef|electron)[^/]*\.so/;

/** Xlib or XCB: what a program maps that draws its windows itself, with no toolkit (MuPDF's viewer, Wine, an SDL game). */
const x11Client = /\/lib(X11|xcb)\.so/;

/**
 * A program that talks to the X server with no toolkit at all: nothing in it would register on the accessibility bus.
 * Told as such, where it had been told to try GTK's, Qt's, Chromium's and Java's switches, none of which it has, and
 * launch_app had waited out its 20 s deadline for a tree (MuPDF's viewer).
 */
const bareX11: ProcessToolkit = {
  name: 'X11 (Xlib/XCB, no toolkit)',
  remedy:
    'it draws its windows itself and maps no toolkit or accessibility library, so nothing of those puts it on the bus (one that speaks the protocol itself, as AccessKit does, shows in get_window_state once it registers)',
  ignoresSentKeys: false,
  ignoresSentPointer: false,
  sentKeysOnlyWhenActive: false,
  accessibility: false,
};

function none(name: string): ProcessToolkit {
  return { name, remedy: `${name} has no accessibility support at all`, ignoresSentKeys: false, sentKeysOnlyWhenActive: false, ignoresSentPointer: false, accessibility: false };
}

/**
 * Why an app of a toolkit whose accessibility is on unless a variable switches it off is not on the bus: that variable
 * in the environment it started with, else what `notRegistered` says (it is on its way, or elsewhere).
 */
function remedyByEnvironment(pid: number, switchedOffBy: string, notRegistered: string): string {
  const environment = processEnvironment(pid);
  const relaunch = 'relaunch it with launch_app';
  if (!environment) return `its accessibility was switched off (${switchedOffBy}), or it has not registered yet: ${relaunch}`;
  if (environment.includes(switchedOffBy)) return `its accessibility was switched off (${switchedOffBy}): ${relaunch}`;
  return `its accessibility is on (no ${switchedOffBy} in its environment), but it has not registered: ${notRegistered}`;
}

/**
 * Why a GTK 3 app is not on the bus. NO_AT_BRIDGE=1 switches its accessibility off; without it, it is on its way (an
 * app registers a moment after its window shows) or on another bus: every such app had been told it was switched off
 * with NO_AT_BRIDGE=1, which its environment did not hold.
 */
function gtk3Remedy(pid: number): string {
  return remedyByEnvironment(
    pid,
    'NO_AT_BRIDGE=1',
    'an app still starting up does so a moment after its window shows (read it again in a moment), and one started with another session bus is on ' +
      'that bus\'s accessibility bus (relaunch it with launch_app)',
  );
}

/**
 * Why a GTK 4 app is not on the bus. GTK_A11Y=none switches its accessibility off; without it, GTK 4 registers from
 * its main loop once that is idle, which an app drawing frame after frame with GL in software (gtk4-widget-factory on
 * Xvfb) did not reach for minutes: it had been told switched off all the same.
 */
function gtk4Remedy(pid: number): string {
  return remedyByEnvironment(
    pid,
    'GTK_A11Y=none',
    'GTK 4 does so once its main loop is idle, which an app drawing without rest never is when its GL is software (as on Xvfb): relaunch it with ' +
      'launch_app, which gives it the cairo renderer there',
  );
}

function switchedOff(name: string, remedy: string, ignoresSent: boolean): ProcessToolkit {
  return { name, remedy, ignoresSentKeys: ignoresSent, sentKeysOnlyWhenActive: false, ignoresSentPointer: ignoresSent, accessibility: true };
}

/** Java's AWT takes sent button events, never sent keys (see synthetic-rung.ts). */
function java(): ProcessToolkit {
  const remedy = existsSync(javaAtkBridge)
    ? 'it was started without Java\'s ATK bridge, which is installed here: quit it and relaunch it with launch_app, which loads the bridge ' +
      `(or start it with JAVA_TOOL_OPTIONS="-Xbootclasspath/a:${javaAtkBridge} -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper")`
    : 'Java\'s ATK bridge is not installed: install libatk-wrapper-java-jni (apt-get install libatk-wrapper-java-jni), then quit it and relaunch it with launch_app, which loads it';
  return { name: 'Java (AWT/Swing)', remedy, ignoresSentKeys: true, sentKeysOnlyWhenActive: false, ignoresSentPointer: false, accessibility: true };
}

/** The toolkit of the process's windows (bare X11 when it maps Xlib or XCB and nothing else that names one), or undefined when its libraries name none (or it is gone, or not ours to read). */
export function processToolkit(pid: number): ProcessToolkit | undefined {
  const libraries = mappedLibraries(pid);
  if (!libraries) return undefined;
  for (const { library, toolkit } of toolkits) {
    for (const path of libraries) if (library.test(path)) return toolkit(pid);
  }
  const paths = [...libraries];
  return paths.some((path) => x11Client.test(path)) && !paths.some((path) => accessibilityLibraries.test(path)) ? bareX11 : undefined;
}

/** The paths of the files the process has mapped (its shared libraries among them); undefined when it is gone or not ours to read. */
export function mappedLibraries(pid: number): Set<string> | undefined {
  if (pid <= 0) return undefined;
  let maps: string;
  try {
    maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return undefined;
  }
  return new Set(maps.split('\n').map((line) => line.slice(line.indexOf('/'))).filter((path) => path.startsWith('/')));
}
