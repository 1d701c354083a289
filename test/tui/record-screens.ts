// Records screens of real programs as visual frames for the structure-heuristic tests:
//   node dist/test/tui/record-screens.js [name...]
// Each recording is test/fixtures/tui/<name>.json. Re-record after changing what the emulator reads.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeKey } from '../../src/tui/keys.js';
import { driverVariables, TerminalSession } from '../../src/tui/session.js';
import { prepareEnvironment } from '../../src/tui/security/environment.js';
import { toVisualFrame } from '../../src/tui/visual-frame.js';
import { waitForConditions } from '../../src/tui/wait.js';
import { repositoryRoot } from '../helpers/desktop.js';

interface Recipe {
  file: string;
  args: string[];
  /** Text that must be on the screen before recording. */
  ready: string;
  /** Key names (as tui_press takes them) or literal text, sent after ready; then the screen must show `after`. */
  keys?: string[];
  after?: string;
  note: string;
  /** Terminal size; 80x24 unless given. */
  cols?: number;
  rows?: number;
}

const work = mkdtempSync(join(tmpdir(), 'cup-record-'));
// htop and top are shown only these processes, so a recording says nothing about the machine it was made on.
const sleepers = Array.from({ length: 14 }, () => spawn('sleep', ['600'], { stdio: 'ignore' }));
const watched = sleepers.map((child) => child.pid).join(',');
const sample = join(work, 'notes.txt');
writeFileSync(sample, Array.from({ length: 60 }, (_, i) => `line ${i + 1}: the quick brown fox`).join('\n'));
// less searches these short lines, so a hit lights most of a line.
const shortRows = join(work, 'rows.txt');
writeFileSync(shortRows, Array.from({ length: 500 }, (_, i) => `row ${i + 1}\n`).join(''));
// fzf picks from these lines; lynx shows these forms.
const fruits = join(work, 'fruits.txt');
writeFileSync(fruits, 'apple\nbanana\ncherry\ndate\nelderberry\n');
writeFileSync(join(work, 'form.html'), '<html><head><title>Signup</title></head><body><form action="done.html"><p>Name: <input type="text" name="name"></p><p><input type="submit" value="Submit"></p></form></body></html>');
writeFileSync(join(work, 'inline.html'), '<html><head><title>Signup</title></head><body><form action="done.html">Name: <input type="text" name="name"> <input type="submit" value="Submit"></form></body></html>');
// newsboat reads one local feed of three stories (no network).
const feed = join(work, 'feed.xml');
writeFileSync(feed, `<?xml version="1.0"?><rss version="2.0"><channel><title>Local News</title><link>http://example.com/</link><description>d</description>${['First', 'Second', 'Third'].map((word, i) => `<item><title>${word} story</title><link>http://example.com/${i + 1}</link><description>Body ${i + 1}</description><pubDate>Mon, 23 Nov 2026 0${i}:00:00 +0000</pubDate></item>`).join('')}</channel></rss>`);
writeFileSync(join(work, 'urls'), `file://${feed}\n`);
// tmux with a private server that ends with its only session when the recorder's client goes, and a fixed
// status bar text (no host name, no clock).
const tmux = `tmux -L cup-record-${process.pid} -f /dev/null new-session 'bash --norc --noprofile' \\; set -g destroy-unattached on \\; set -g status-right 'right side' \\; split-window -h 'bash --norc --noprofile'`;
// mc's two panels list a directory of two empty files with a fixed date, so recordings do not change with the day.
// (in a directory of their own, whose ".." entry is not the recorder's HOME that mc writes its settings to).
const panels = join(work, 'panels', 'files');
mkdirSync(panels, { recursive: true });
const fixedDate = new Date('2026-11-23T01:39:00Z');
for (const name of ['a.txt', 'b.txt']) {
  writeFileSync(join(panels, name), '');
  utimesSync(join(panels, name), fixedDate, fixedDate);
}
utimesSync(panels, fixedDate, fixedDate);
utimesSync(join(work, 'panels'), fixedDate, fixedDate);
// mc without its subshell (-u) and without mouse (-d), reading no user setup: the panels are what is recorded.
const mc = (keys: string[] | undefined, after: string | undefined, note: string): Recipe => ({
  file: '/usr/bin/mc', args: ['-u', '-d', panels, panels], ready: '10Quit', keys, after, note, cols: 100, rows: 30,
});

const recipes: Record<string, Recipe> = {
  'dialog-menu': { file: '/usr/bin/dialog', args: ['--title', 'Fruit', '--menu', 'Pick a fruit', '15', '50', '4', 'apple', 'Red fruit', 'banana', 'Yellow fruit', 'cherry', 'Small fruit'], ready: 'cherry', keys: ['Down'], after: 'banana', note: 'dialog --menu after one Down: banana selected' },
  'dialog-yesno': { file: '/usr/bin/dialog', args: ['--title', 'Confirm', '--yesno', 'Delete all files?', '7', '40'], ready: 'Delete', note: 'dialog --yesno, Yes focused' },
  'dialog-checklist': { file: '/usr/bin/dialog', args: ['--checklist', 'Toppings', '12', '50', '4', 'cheese', 'Cheese', 'on', 'ham', 'Ham', 'off', 'olives', 'Olives', 'off'], ready: 'olives', note: 'dialog --checklist with cheese checked' },
  'dialog-gauge': { file: '/usr/bin/dialog', args: ['--title', 'Copy', '--gauge', 'Copying files', '7', '50', '42'], ready: '42%', note: 'dialog --gauge at 42%' },
  'dialog-inputbox': { file: '/usr/bin/dialog', args: ['--inputbox', 'Your name:', '8', '40', 'Ada'], ready: 'Ada', note: 'dialog --inputbox with initial text' },
  'whiptail-menu': { file: '/usr/bin/whiptail', args: ['--title', 'Colours', '--menu', 'Choose a colour', '15', '50', '3', 'red', 'Warm', 'green', 'Natural', 'blue', 'Cool'], ready: 'blue', note: 'whiptail --menu, red selected' },
  'whiptail-yesno': { file: '/usr/bin/whiptail', args: ['--yesno', 'Continue the installation?', '8', '45'], ready: 'Continue', note: 'whiptail --yesno' },
  htop: { file: '/usr/bin/htop', args: ['-p', watched], ready: 'F10Quit', note: 'htop showing fourteen sleep processes' },
  top: { file: '/usr/bin/top', args: ['-p', watched], ready: 'PID', note: 'procps top showing fourteen sleep processes' },
  vim: { file: '/usr/bin/vim', args: ['-u', 'NONE', '-N', sample], ready: 'line 1:', note: 'vim -u NONE on a 60-line file' },
  less: { file: '/usr/bin/less', args: [sample], ready: 'line 1:', note: 'less on a 60-line file' },
  'less-search-hits': { file: '/usr/bin/less', args: [shortRows], ready: 'row 1', keys: ['/row 25\r', 'n'], after: 'row 272', note: 'less on 500 short lines ("row N") after /row 25 and n: the hits in rows 250-259 lit, most of each short line' },
  bash: { file: '/usr/bin/bash', args: ['--norc', '--noprofile', '-i'], ready: '$ ', keys: ['printf "alpha beta\\n"\r'], after: 'alpha beta', note: 'bash after a command, prompt with cursor' },
  mc: mc(undefined, undefined, 'mc 100x30, both panels on a directory holding a.txt and b.txt, left panel active on ".."'),
  'mc-down': mc(['Down'], 'a.txt', 'mc after Down: a.txt selected in the left panel'),
  'mc-tab': mc(['Down', 'Tab'], 'a.txt', 'mc after Down and Tab: the right panel active on ".."'),
  'mc-ascii': { ...mc(['Down'], 'a.txt', 'mc -a (boxes of + - |) after Down: a.txt selected in the left panel'), args: ['-a', '-u', '-d', panels, panels] },
  'mc-narrow': { ...mc(undefined, undefined, 'mc 70x20: its key bar too narrow for blanks between every hint ("9PullDn10Quit" drawn as "9Pu~Dn10Quit")'), ready: '10Quit', cols: 70, rows: 20 },
  'mc-copy': mc(['Down', 'F5'], 'Background', 'mc after Down and F5: the Copy dialog over both panels, the cursor in its "to:" field'),
  nano: { file: '/usr/bin/nano', args: ['--ignorercfile', sample], ready: 'Exit', note: 'nano on a 60-line file: title bar, text, two rows of ^X key hints' },
  'fzf-multi': { file: '/usr/bin/sh', args: ['-c', `fzf --multi --no-mouse < ${fruits}`], ready: '5/5', keys: ['Tab'], after: '(1)', note: 'fzf --multi on five fruits after Tab: apple marked, the info line with its rule above the prompt' },
  'fzf-up': { file: '/usr/bin/sh', args: ['-c', `fzf --no-mouse < ${fruits}`], ready: '5/5', keys: ['Up'], after: '> banana', note: 'fzf on five fruits after Up: its pointer ">" on banana, in a column of its own before the items' },
  micro: { file: '/usr/bin/micro', args: [sample], ready: 'line 1:', keys: ['Down'], after: '(2,1)', note: 'micro on a 60-line file after Down: numbered lines in a grey gutter, the current line lit, the cursor on line 2' },
  'irssi-typed': { file: '/usr/bin/irssi', args: ['--home', join(work, 'irssi'), '-n', 'tester'], ready: '[(status)]', keys: ['/echo hello'], after: '/echo hello', note: 'irssi with no server after typing "/echo hello" on its input line, after its "[(status)]" prompt' },
  'newsboat-articles': { file: '/usr/bin/newsboat', args: ['-u', join(work, 'urls'), '-c', join(work, 'cache.db'), '-C', '/dev/null', '-r'], ready: 'Local News', keys: ['Enter'], after: 'Third story', note: 'newsboat on a local feed of three stories after Enter: the articles, the first under the selection bar (a data row, not a header), key:label hints at the bottom' },
  'weechat-typed': { file: '/usr/bin/weechat', args: ['-d', join(work, 'weechat')], ready: '[core]', keys: ['hello there'], after: 'hello there', note: 'weechat with no server after typing "hello there": the buffer list beside the chat, its "time | message" rule, the status bar and the input line under them', cols: 80, rows: 20 },
  'lynx-form': { file: '/usr/bin/lynx', args: [join(work, 'form.html')], ready: 'Name:', keys: ['Down'], after: 'submit button', note: 'lynx on a form of a field and a Submit button on two lines, after Down: the button current, three help lines at the bottom' },
  'lynx-inline-form': { file: '/usr/bin/lynx', args: [join(work, 'inline.html')], ready: 'Name:', note: 'lynx on a form whose field and Submit button share a line, the cursor in the empty field' },
  'tmux-split': { file: '/usr/bin/sh', args: ['-c', tmux], ready: 'right side', note: 'tmux split into two panes side by side, its status bar across the bottom row' },
  emacs: { file: '/usr/bin/emacs', args: ['-nw', '-Q', sample], ready: 'line 1:', note: 'emacs -nw -Q on a 60-line file: the menu bar one blank between its words, the mode line over the echo area' },
  'emacs-mx': { file: '/usr/bin/emacs', args: ['-nw', '-Q', sample], ready: 'line 1:', keys: ['\u001bx'], after: 'M-x', note: 'emacs -nw -Q after M-x: the cursor in the minibuffer after its "M-x " prompt' },
  python: { file: '/usr/bin/python3', args: ['-q'], ready: '>>> ', keys: ['def f(x):\r', '    return x * 2\r'], after: '... ', note: 'python3 REPL in the middle of a multi-line definition' },
};

async function record(name: string, recipe: Recipe): Promise<void> {
  const { env } = prepareEnvironment(process.env, { PS1: '$ ', HOME: work, LANG: 'C.UTF-8' }, driverVariables());
  const session = new TerminalSession(name, { command: recipe.file, file: recipe.file, args: recipe.args, cwd: work, env, cols: recipe.cols ?? 80, rows: recipe.rows ?? 24 });
  const waitText = (text: string) => waitForConditions(session, { conditions: [{ text }], timeoutMs: 5000 });
  try {
    await waitText(recipe.ready);
    for (const key of recipe.keys ?? []) {
      session.write(key.length > 1 && /^[A-Z]/.test(key) ? encodeKey(key, session) : key);
      await sleep(150);
    }
    if (recipe.after) await waitText(recipe.after);
    await sleep(400);
    const visual = toVisualFrame((await session.settledState()).grid);
    const path = join(repositoryRoot, 'test', 'fixtures', 'tui', `${name}.json`);
    const program = [recipe.file, ...recipe.args.map((arg) => arg.replace(work, '/tmp/work').replace(watched, '<pids>'))].join(' ');
    writeFileSync(path, `${JSON.stringify({ program, note: recipe.note, ...visual })}\n`);
    process.stdout.write(`${name}: ${path}\n${visual.lines.join('\n')}\n`);
  } finally {
    await session.stop();
  }
}

const wanted = process.argv.slice(2);
try {
  for (const [name, recipe] of Object.entries(recipes)) {
    if (wanted.length === 0 || wanted.includes(name)) await record(name, recipe);
  }
} finally {
  for (const child of sleepers) child.kill();
}
