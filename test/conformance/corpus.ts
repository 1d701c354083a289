// The conformance corpus: real Debian 12 apps across toolkits, each started as a user would start it, with
// fresh configuration directories (the launcher gives each its own HOME and XDG directories). The only
// arguments are those a user passes anyway (a file or page to open) or that running as root requires.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '../helpers/desktop.js';

/** Test files run one toolkit family each, so families can run in parallel. */
export type Family = 'gtk' | 'qt' | 'office' | 'web' | 'other';

export interface CorpusApp {
  id: string;
  toolkit: string;
  family: Family;
  command: string;
  /** Arguments, given the app's private home directory. */
  args?: (home: string) => string[];
  /** The main window's title. */
  title: RegExp;
  /** False for toolkits without accessibility: the check is then an honest degraded result with a screenshot. */
  accessible: boolean;
  /** How long to wait for the window to map (big apps take longer on a shared machine). */
  launchTimeoutMs?: number;
  /** Environment a user's desktop session would give the app. */
  env?: Record<string, string>;
  /** Files a user would already have (a document to open, a project folder), written into its home. */
  prepare?: (home: string) => void;
}

/** The web page both browsers open: form controls, labels, an output region and links. */
export const conformancePage = join(repositoryRoot, 'test', 'fixtures', 'conformance', 'page.html');

const homeFolderFiles = (home: string) => {
  for (const name of ['notes.txt', 'report.odt', 'budget.csv', 'photo.png', 'todo.md']) writeFileSync(join(home, name), `${name}\n`);
  mkdirSync(join(home, 'Documents'), { recursive: true });
  mkdirSync(join(home, 'Music'), { recursive: true });
};

export const corpus: readonly CorpusApp[] = [
  { id: 'gedit', toolkit: 'GTK3', family: 'gtk', command: 'gedit', title: /gedit|Untitled/, accessible: true },
  { id: 'mousepad', toolkit: 'GTK3', family: 'gtk', command: 'mousepad', title: /Mousepad/, accessible: true },
  {
    id: 'pcmanfm',
    // Debian 12's PCManFM is still a GTK 2 app: GTK 2 loads its accessibility (GAIL and the AT-SPI bridge) only
    // as GTK modules, which a desktop session with accessibility on names in GTK_MODULES.
    toolkit: 'GTK2',
    family: 'gtk',
    command: 'pcmanfm',
    args: (home) => [home],
    env: { GTK_MODULES: 'gail:atk-bridge' },
    title: /^cup-conformance-pcmanfm-/,
    accessible: true,
    // The list view ("Detailed List" in View > View Mode) is the user's saved choice, as after picking it once.
    prepare: (home) => {
      homeFolderFiles(home);
      const config = join(home, '.config', 'pcmanfm', 'default');
      mkdirSync(config, { recursive: true });
      writeFileSync(join(config, 'pcmanfm.conf'), '[ui]\nview_mode=list\n');
    },
  },
  { id: 'gtk3-demo', toolkit: 'GTK3', family: 'gtk', command: 'gtk3-demo', title: /Application Class/, accessible: true },
  { id: 'galculator', toolkit: 'GTK3', family: 'gtk', command: 'galculator', title: /galculator/, accessible: true },
  { id: 'gnome-text-editor', toolkit: 'GTK4', family: 'gtk', command: 'gnome-text-editor', title: /Text Editor|New Document|Untitled/, accessible: true },
  { id: 'gnome-calculator', toolkit: 'GTK4', family: 'gtk', command: 'gnome-calculator', title: /^Calculator$/, accessible: true },
  { id: 'gtk4-demo', toolkit: 'GTK4', family: 'gtk', command: 'gtk4-demo', title: /GTK Demo|Application Class/, accessible: true },
  { id: 'featherpad', toolkit: 'Qt 5', family: 'qt', command: 'featherpad', title: /FeatherPad|Untitled/, accessible: true },
  { id: 'speedcrunch', toolkit: 'Qt 5', family: 'qt', command: 'speedcrunch', title: /SpeedCrunch/, accessible: true },
  {
    id: 'pcmanfm-qt',
    toolkit: 'Qt 5',
    family: 'qt',
    // Its first start in a fresh home (its menu cache, its D-Bus services) once took over 30 s in a CI run.
    launchTimeoutMs: 60_000,
    command: 'pcmanfm-qt',
    args: (home) => [home],
    title: /^cup-conformance-pcmanfm-qt-/,
    accessible: true,
    prepare: homeFolderFiles,
  },
  { id: 'qt6ct', toolkit: 'Qt 6', family: 'qt', command: 'qt6ct', title: /Qt6 Configuration Tool/, accessible: true },
  {
    id: 'libreoffice-writer',
    toolkit: 'LibreOffice (VCL gtk3)',
    family: 'office',
   
    command: 'libreoffice',
    // --norestore: no document-recovery dialog from an earlier run. The gtk3 plugin is what LibreOffice picks
    // on a GNOME or Xfce session; without a desktop name it falls back to the inaccessible X11 one.
    args: () => ['--writer', '--norestore'],
    env: { SAL_USE_VCLPLUGIN: 'gtk3' },
    title: /LibreOffice Writer/,
    accessible: true,
    launchTimeoutMs: 60_000,
  },
  {
    id: 'libreoffice-calc',
    toolkit: 'LibreOffice (VCL gtk3)',
    family: 'office',
   
    command: 'libreoffice',
    args: () => ['--calc', '--norestore'],
    env: { SAL_USE_VCLPLUGIN: 'gtk3' },
    title: /LibreOffice Calc/,
    accessible: true,
    launchTimeoutMs: 60_000,
  },
  {
    id: 'firefox-esr',
    toolkit: 'Gecko',
    family: 'web',
   
    command: 'firefox-esr',
    args: () => [`file://${conformancePage}`],
    // What a desktop with accessibility switched on tells every app.
    env: { GNOME_ACCESSIBILITY: '1' },
    title: /Conformance form/,
    accessible: true,
    launchTimeoutMs: 60_000,
  },
  {
    id: 'chromium',
    toolkit: 'Blink',
    family: 'web',
   
    command: 'chromium',
    args: (home) => [
      // Root cannot use Chromium's sandbox; renderer accessibility is what a screen reader switches on.
      '--no-sandbox', '--force-renderer-accessibility', `--user-data-dir=${join(home, 'chromium')}`, '--password-store=basic',
      '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
      `file://${conformancePage}`,
    ],
    title: /Conformance form/,
    accessible: true,
    launchTimeoutMs: 60_000,
  },
  {
    id: 'jedit',
    toolkit: 'Java Swing (ATK bridge)',
    family: 'other',
    command: 'jedit',
    title: /^jEdit - /,
    accessible: true,
    launchTimeoutMs: 60_000,
    // Java 17 loads an assistive technology only from its class path, and Debian leaves the ATK bridge off
    // (its accessibility.properties line is commented out, LP #935296): a session that wants Java apps
    // accessible adds the bridge through JAVA_TOOL_OPTIONS, which every JVM of the session reads.
    env: {
      JAVA_TOOL_OPTIONS: '-Xbootclasspath/a:/usr/share/java/java-atk-wrapper.jar -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper',
    },
  },
  {
    id: 'git-gui',
    toolkit: 'Tk (no accessibility)',
    family: 'other',
   
    command: 'git',
    args: () => ['gui'],
    title: /Git Gui/,
    accessible: false,
    // git gui opens the repository of its working directory (the app's home).
    prepare: (home) => {
      writeFileSync(join(home, 'README'), 'hello\n');
      execFileSync('git', ['init', '-q', home], { timeout: 10_000 });
    },
  },
  { id: 'nedit', toolkit: 'Motif (no accessibility)', family: 'other', command: 'nedit', title: /Untitled/, accessible: false },
];

