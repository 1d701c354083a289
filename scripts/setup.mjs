#!/usr/bin/env node
// Idempotent set-up for `npm test`, `npm run demo`, `npm run bench` and `npm run conformance` on a fresh Debian 12 machine.
// Uses only Node built-ins because it runs before node_modules exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Debian packages the embedded desktop needs at run time.
const desktopPackages = [
  'xvfb', 'xauth', 'openbox', 'dbus', 'dbus-x11', 'at-spi2-core', 'libatk-adaptor', 'fonts-dejavu-core',
  // CJK glyphs, so screenshots of apps and terminals show Chinese and Japanese text rather than boxes.
  'fonts-wqy-microhei',
];
// Real applications and toolkits the end-to-end tests drive, and the independent pyatspi oracle.
const testPackages = [
  'python3-gi', 'gir1.2-gtk-3.0', 'gir1.2-gtk-4.0', 'gir1.2-atspi-2.0', 'python3-pyatspi',
  'gnome-calculator', 'gtk-3-examples',
  // A Qt 5 application (Qt's own AT-SPI bridge behaves differently from GTK's), and Xaw apps with no
  // accessibility at all (xcalc takes synthetic X events).
  'speedcrunch', 'x11-apps',
  // xterm: an Xt app with no accessibility that drops sent keys by default (allowSendEvents).
  'xterm',
  // Tk for its fixture (test/fixtures/apps/tk_fixture.py, driven by test/e2e/launch-toolkits.test.ts): a toolkit
  // with no accessibility that takes sent keys only while its window is active.
  'python3-tk',
  // PyQt5 for the Qt 5 fixture (test/fixtures/apps/qt5_fixture.py, driven by test/e2e/qt5-fixture.test.ts).
  'python3-pyqt5',
  // Apps outside the fixtures whose trees once went wrong (test/e2e/tree-fidelity.test.ts): GTK3 editors, a Qt 5
  // editor, and a GTK 2 file manager with the GTK 2 accessibility module a Debian session loads.
  'gedit', 'mousepad', 'featherpad', 'pcmanfm', 'libgail-common',
  // A GTK 2 app whose combo box's Text goes stale under GAIL (test/e2e/gtk2-combo.test.ts).
  'pidgin',
  // A GTK3 IDE whose toolbar buttons hold their menus' items, and a document viewer whose pages hold their words in
  // their own text (test/e2e/tree-fidelity.test.ts).
  'geany', 'atril',
  // WebKitGTK's GObject bindings for the GTK3 fixture's --web-view: a page embedded from its web process through an ATK
  // socket, as Devhelp shows its documentation (test/e2e/trial-devtools.test.ts), or one of test/fixtures/web's pages
  // with --web-page (test/e2e/webkit-view.test.ts).
  'gir1.2-webkit2-4.1',
  // GtkSourceView 4's bindings for the GTK3 fixture's --source-view, a code editor that auto-indents what keys type
  // (test/e2e/code-editor-typing.test.ts); Meld already pulls them in.
  'gir1.2-gtksource-4',
  // A terminal emulator (VTE): its screen is only in its Text, shown as rows (test/e2e/terminal-widget.test.ts).
  'lxterminal',
  // GTK3 dialogs from the shell, which print what the user entered, a GTK3 diff viewer full of popovers, a
  // character map whose menu opens a dialog, and a word processor whose canvas has no accessibility
  // (test/e2e/trial-apps.test.ts), and a GTK 2 picture viewer painting on a widget GAIL gives no role (the same file).
  'zenity', 'meld', 'gucharmap', 'abiword', 'gpicview',
  // A Qt 5 tag editor whose Configure dialog Qt builds object by object (test/e2e/trial-apps.test.ts), and a Qt
  // terminal whose screen is a widget it paints, holding its scroll bar (test/e2e/terminal-widget.test.ts).
  'kid3-qt', 'qterminal',
  // GNOME's keyring, as on a Debian desktop: Chromium asks it for a new keyring as it starts, unless told to keep its
  // secrets in its profile (test/e2e/launched-page-focus.test.ts).
  'gnome-keyring',
  // A web browser: Blink's tree (hypertext with embedded objects, actions named only by GetName).
  'chromium',
  // LibreOffice Calc, whose sheets report 2^34 cells; its GTK3 plugin is what exposes it to AT-SPI (the
  // default X11 plugin has no accessibility), and it is chosen on its own when installed.
  'libreoffice-calc', 'libreoffice-gtk3',
  // LibreOffice Impress: its Slides pane's panels, selected through their document (test/e2e/libreoffice-impress.test.ts).
  'libreoffice-impress',
  // Gnumeric, whose sheet has scroll bars and no scroll pane around it (test/e2e/scroll-without-pane.test.ts).
  'gnumeric',
  // Ristretto, which shows two identical warning dialogs at start (test/e2e/twin-dialogs.test.ts).
  'ristretto',
  // Thunar, whose menus are made as they open, Xarchiver, whose file list is wider than its pane, LXAppearance, a GTK 2
  // app with a font button and a font chooser, and Document Scanner, whose menu button opens its About window
  // (test/e2e/trial-deskapps5.test.ts).
  'thunar', 'xarchiver', 'lxappearance', 'simple-scan',
  // GHex, a GTK 4 hex editor painting its views on drawing areas, qps, a Qt 5 process viewer painting its list,
  // dconf Editor, whose folder rows hold their label two boxes deep, qpdfview, a Qt 5 PDF viewer whose page box turns
  // the page at Return, and Gnote, whose preferences put a check box and the field it switches in a box of their own
  // (test/e2e/trial-deskapps6.test.ts).
  'ghex', 'qps', 'dconf-editor', 'qpdfview', 'gnote',
  // GNOME System Monitor, whose libhandy preferences rows label their switches by the row alone, GNOME Clocks, a GTK 4
  // app whose alarm rows hold a switch and a delete button named by its tool tip, GNOME Characters, a GTK 4 app whose
  // dialog's object is named by its type, and GtkTerm, whose title holds two spaces in a row
  // (test/e2e/trial-deskapps7.test.ts).
  'gnome-system-monitor', 'gnome-clocks', 'gnome-characters', 'gtkterm',
  // MATE Calculator, whose Mode > Advanced makes a panel of buttons, each named and described as it is made
  // (test/e2e/trial-deskapps8.test.ts).
  'mate-calc',
  // File Roller (Archive Manager), whose New Archive dialog holds an expander over disabled fields, a popover menu and
  // a combo box with a separator among its places (test/e2e/trial-file-roller.test.ts).
  'file-roller',
  // GNOME Sudoku, a GTK3 game drawing each of its 81 cells on a drawing area of its own (test/e2e/trial-deskapps9.test.ts).
  'gnome-sudoku',
  // KCharSelect, a KDE (Qt 5) app whose search replaces the choices of its closed block list
  // (test/e2e/trial-deskapps10.test.ts).
  'kcharselect',
  // GTK 4's widget factory, a window full of animated widgets that GTK 4 draws with GL, in software on Xvfb
  // (test/e2e/gtk4-software-rendering.test.ts).
  'gtk-4-examples',
  // Poedit, a wxWidgets (wxGTK 3.2) app whose controls update at idle (test/e2e/wx-apps.test.ts).
  'poedit',
  // libadwaita's GObject bindings for the GTK4 fixture's --adw: a toast overlay and a combo row, as GNOME's apps build
  // with them (test/e2e/trial-gtk-apps2.test.ts).
  'gir1.2-adw-1',
  // Terminal programs the tui_* tests drive.
  'vim', 'htop', 'less', 'dialog', 'whiptail', 'procps', 'sqlite3', 'mg', 'btop', 'nnn', 'lynx', 'visidata',
  // cfdisk and sfdisk (test/e2e/tui-column-headers.test.ts); IPython's completion menu (test/e2e/tui-python.test.ts);
  // gdb's prompt, and its -tui source window on a program gcc builds (test/e2e/tui-debugger-prompt.test.ts).
  'fdisk', 'ipython3', 'gdb', 'gcc',
  // mtr's hops under its bold column names, nothing lit (test/e2e/tui-column-headers.test.ts).
  'mtr-tiny',
  // ytree's box tiled into panes by a rule and dividers ending on it (test/e2e/tui-tiled-panes.test.ts).
  'ytree',
  // fzf's pointer column (test/e2e/tui-pickers.test.ts); micro's buffer (test/e2e/tui-editors.test.ts).
  'fzf', 'micro',
  // irssi's input line after its bracketed status prompt and weechat's beside its buffer list (test/e2e/tui-chat.test.ts).
  'irssi', 'weechat-curses',
  // newsboat's articles and key:label hints (test/e2e/tui-feeds.test.ts).
  'newsboat',
  // neomutt's index, its tagged messages marked by a `*` and counted on its status line (test/e2e/tui-tagged-rows.test.ts).
  'neomutt',
  // emacs's F10 menus, a popup in a face of its own with its current item in another (test/e2e/tui-popup-menu.test.ts).
  'emacs-nox',
  // taskwarrior's report, banded with every other row lit (test/e2e/tui-striped-rows.test.ts).
  'taskwarrior',
  // pspg's CSV table, whose id column counts like line numbers (test/e2e/tui-grid-tables.test.ts).
  'pspg',
  // Shells whose command lines carry a right prompt and a faint autosuggestion (test/e2e/tui-shell-prompts.test.ts).
  'zsh', 'fish',
  // elinks's select popup of two options, one lit (test/e2e/tui-popup-menu.test.ts).
  'elinks',
  // lnav's status bars stacked two deep at the top and the bottom (test/e2e/tui-status-bars.test.ts).
  'lnav',
  // tmux's panes split beside and below one another (test/e2e/tui-splits-tmux.test.ts).
  'tmux',
  // sc's spreadsheet grid (test/e2e/tui-grid-tables.test.ts), vifm's titled panes (test/e2e/tui-pane-titles.test.ts),
  // hexedit's dashed mode line (test/e2e/tui-status-bars.test.ts).
  'sc', 'vifm', 'hexedit',
  // cmus's artist and track windows side by side, and cmus-remote, its own account of the selection
  // (test/e2e/tui-split-window-lists.test.ts).
  'cmus',
  // The terminal corpus (test/tui-corpus/programs.ts) adds these; tig needs git for its repository.
  'mc', 'ncdu', 'tig', 'git', 'ranger', 'neovim', 'nano', 'man-db', 'w3m', 'calcurse', 'aptitude', 'python3',
  // Independent readers of the X server the tests judge focus, stacking, the pointer and the clipboard with.
  'x11-utils', 'xdotool', 'xclip',
  // setxkbmap, which switches the layouts test/input/keyboard-layouts.test.ts types on.
  'x11-xkb-utils',
  // start_recording's screen video (x11grab, libx264), and ffprobe, which the tests read the videos with.
  'ffmpeg',
];
// Peer tools the benchmark measures us against.
const benchPackages = ['imagemagick', 'xdotool', 'tmux'];
// The conformance corpus (test/conformance/corpus.ts): real apps across toolkits, checked against pyatspi.
const conformancePackages = [
  'gedit', 'mousepad', 'galculator', // GTK3 (gtk-3-examples is a test package already)
  'pcmanfm', 'libgail-common', // GTK2, whose accessibility is the GAIL module
  'gnome-text-editor', 'gtk-4-examples', // GTK4 (gnome-calculator is a test package already)
  'featherpad', 'pcmanfm-qt', 'qt5ct', 'qt6ct', // Qt 5 and Qt 6 (speedcrunch is a test package already)
  'libreoffice-writer', 'libreoffice-calc', 'libreoffice-gtk3', // VCL, through its accessible gtk3 plugin
  'firefox-esr', 'chromium',
  // A Swing app and Java's ATK bridge.
  'jedit', 'default-jre', 'libatk-wrapper-java', 'libatk-wrapper-java-jni',
  // Tk and Motif, without accessibility.
  'git-gui', 'nedit',
  // FLTK, without accessibility: FLUID, its designer (test/e2e/launch-toolkits.test.ts, its toolkit named).
  'fluid',
];

const args = new Set(process.argv.slice(2));
const wanted = [
  ...desktopPackages,
  ...testPackages,
  ...(args.has('--bench') ? benchPackages : []),
  // The e2e task tests (test/e2e/tasks-*.test.ts) do one real task in every corpus app, so `npm test` needs the
  // corpus as well; --conformance is still accepted.
  ...conformancePackages,
];

function log(message) {
  process.stderr.write(`[setup] ${message}\n`);
}

function missingDebianPackages(packages) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\n', ...packages], {
    encoding: 'utf8',
  });
  const installed = new Set(
    result.stdout.split('\n').filter((line) => line.endsWith(' installed')).map((line) => line.split(' ')[0]),
  );
  return packages.filter((name) => !installed.has(name));
}

function installDebianPackages() {
  if (!existsSync('/usr/bin/dpkg-query')) {
    log('not a Debian system: skipping apt packages; install Xvfb, openbox, dbus and at-spi2-core yourself');
    return;
  }
  const missing = missingDebianPackages(wanted);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing Debian packages: ${missing.join(' ')}; run: sudo apt-get install -y ${missing.join(' ')}`);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
  if (install().status !== 0) {
    // Package lists on a fresh machine are often absent or stale; refresh once and retry.
    execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
    const retry = install();
    if (retry.status !== 0) throw new Error(`apt-get install failed for: ${missing.join(' ')}`);
  }
}

function installNpmPackages() {
  const lock = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.cup-driver-setup');
  const digest = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  // npm ci empties node_modules first: through a symlink (a git worktree sharing another checkout's packages)
  // that would wipe the other checkout's install while it runs.
  const modules = join(root, 'node_modules');
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    throw new Error(`node_modules is a symlink and does not match package-lock.json; npm ci would empty its target: replace it with a real directory (rm node_modules && npm ci)`);
  }
  log('installing npm packages (npm ci)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci failed');
  warmGlobalInstallCache();
  writeFileSync(stamp, digest);
}

// test/e2e/pack-install.test.ts installs the packed package as users do (`npm install -g`), but offline.
// npm ci caches only the locked tarballs, while a global install resolves each dependency range from the
// registry's version list (the packument), which npm ci never fetches. Installing the same dependencies
// once into a throw-away folder puts both in npm's cache; the offline install then resolves to the same
// versions from those cached lists.
function warmGlobalInstallCache() {
  const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'cup-driver-cache-warm-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cup-driver-cache-warm', private: true, dependencies }));
    log('caching the dependencies a global install resolves (for the offline pack-install test)');
    const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts'], {
      cwd: dir,
      stdio: 'inherit',
      timeout: 600_000,
    });
    if (result.status !== 0) throw new Error('npm install into a scratch folder (to warm the npm cache) failed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The npm peers `npm run bench` measures against (the Playwright MCP server), pinned by bench-peers/package-lock.json
// and installed there, apart from the package's own dependencies. Playwright would fetch browsers of its own on
// install; the bench attaches it to Debian's Chromium instead, so that download is skipped.
function installBenchPeers() {
  const dir = join(root, 'bench-peers');
  const stamp = join(dir, 'node_modules', '.cup-driver-setup');
  const digest = createHash('sha256').update(readFileSync(join(dir, 'package-lock.json'))).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  log('installing the benchmark\'s npm peers (npm ci in bench-peers/)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: dir,
    stdio: 'inherit',
    timeout: 600_000,
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (result.status !== 0) throw new Error('npm ci in bench-peers/ failed');
  writeFileSync(stamp, digest);
}

try {
  installDebianPackages();
  installNpmPackages();
  if (args.has('--bench')) installBenchPeers();
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
