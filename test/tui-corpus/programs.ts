// The terminal conformance corpus: real Debian programs, each with a script of key presses and the facts an
// agent must be able to read after each step. The live runs (test/e2e/tui-corpus-*.test.ts) check them
// through the tools; the recordings of the same steps (test/fixtures/tui/corpus/) check them on the
// structure alone (test/tui/corpus-screens.test.ts). Facts name what is on the screen, never how a
// particular program draws it, so they hold for any heuristics that read the screen right.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '../helpers/desktop.js';
import type { Fact } from './facts.js';

export interface Step {
  /** Names the recording: <program>-<step>.json. */
  name: string;
  /** Key names as tui_press takes them, pressed in order. */
  keys?: string[];
  /** Text typed with tui_type, after the keys. */
  type?: string;
  /** Text on the screen once the step is done (then the screen must be still for a moment). */
  until: string;
  facts: Fact[];
}

export interface CorpusProgram {
  name: string;
  /** Debian package that installs it (scripts/setup.mjs testPackages). */
  pkg: string;
  command: string;
  /** Arguments; `work` is the private working directory (HOME is another private directory). */
  args(work: string): string[];
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Directory inside `work` to start in (default: `work` itself). */
  cwd?: string;
  /** `sleep` processes (their arguments) running while the program runs, for process viewers to show. */
  sleepers?: string[];
  /** Creates the files the program shows, inside `work`. */
  prepare?(work: string): void;
  steps: Step[];
}

/** Rows of a list, table or tree, whatever role the heuristics give them. */
const ROW = 'role*=^(listitem|row|treeitem|option)$';
/** Something that acts when activated: a button, a key hint, a menu item. */
const ACTION = 'role*=^(button|menuitem|keyhint)$';

function files(work: string, entries: Record<string, string>): void {
  for (const [path, content] of Object.entries(entries)) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), content);
  }
}

const lines = (word: string, count: number): string => Array.from({ length: count }, (_, i) => `${word} line ${i + 1}`).join('\n') + '\n';

const CURSES_APP = join(repositoryRoot, 'test', 'fixtures', 'tui', 'curses_panes.py');

export const corpus: CorpusProgram[] = [
  {
    name: 'mc',
    pkg: 'mc',
    command: 'mc',
    // -u: no subshell (the command line is mc's own), so the screen does not depend on the user's shell.
    args: () => ['-u'],
    cols: 100,
    rows: 30,
    prepare: (work) => files(work, { 'a.txt': 'alpha\n', 'b.txt': 'bravo\n', 'c.txt': 'charlie\n' }),
    steps: [
      {
        name: 'start',
        until: 'Quit',
        facts: [
          { says: 'the two directory panels are separate regions', selector: 'role=panel', atLeast: 2 },
          { says: 'no row spans both panels', selector: 'name*=a\\.txt.*a\\.txt', count: 0 },
          { says: 'the function-key bar holds a Quit key hint', selector: `${ACTION} name=Quit`, count: 1 },
          { says: 'the menu bar holds a File menu', selector: `${ACTION} name=File`, count: 1 },
          { says: 'the row "/.." is selected in the left panel', selector: `${ROW} selected name~=..`, count: 1 },
        ],
      },
      {
        name: 'down2',
        keys: ['Down', 'Down'],
        until: 'b.txt',
        facts: [
          { says: 'after two Down presses b.txt is the one selected row', selector: `${ROW} selected`, count: 1 },
          { says: 'the selected row is b.txt', selector: `${ROW} selected name~=b.txt`, count: 1 },
          { says: 'focus is on b.txt in the left panel', focus: `${ROW} name~=b.txt`, inside: 'role=panel [index=0]' },
        ],
      },
      {
        name: 'tab',
        keys: ['Tab'],
        until: 'b.txt',
        facts: [
          { says: 'after Tab the right panel is active: focus is inside it', focus: ROW, inside: 'role=panel [index=1]' },
          { says: 'the right panel selects "/.."', selector: `${ROW} selected name~=..`, count: 1 },
        ],
      },
    ],
  },
  {
    name: 'ncdu',
    pkg: 'ncdu',
    command: 'ncdu',
    args: (work) => ['--color', 'off', join(work, 'sizes')],
    prepare: (work) => files(work, { 'sizes/big.bin': 'x'.repeat(300_000), 'sizes/medium.bin': 'x'.repeat(120_000), 'sizes/small.bin': 'x'.repeat(20_000) }),
    steps: [
      {
        name: 'start',
        until: 'small.bin',
        facts: [
          { says: 'the largest file is selected first', selector: `${ROW} selected name~=big.bin`, count: 1 },
          { says: 'the status line shows the item count', selector: 'role=status text~="Items: 3"', count: 1 },
        ],
      },
      {
        name: 'down1',
        keys: ['Down'],
        until: 'medium.bin',
        facts: [
          { says: 'after Down the second largest file is the one selected row', selector: `${ROW} selected`, count: 1 },
          { says: 'medium.bin is selected', selector: `${ROW} selected name~=medium.bin`, count: 1 },
        ],
      },
    ],
  },
  {
    name: 'tig',
    pkg: 'tig',
    command: 'tig',
    args: () => [],
    // Wide enough for tig to open a commit's diff in a window beside the list rather than under it.
    cols: 120,
    rows: 30,
    cwd: 'repo',
    prepare: (work) => {
      const repo = join(work, 'repo');
      mkdirSync(repo, { recursive: true });
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=Corpus', '-c', 'user.email=corpus@example.org', '-c', 'init.defaultBranch=main', ...args], { cwd: repo, timeout: 10_000, stdio: 'ignore' });
      git('init', '-q');
      for (const word of ['first', 'second', 'third']) {
        writeFileSync(join(repo, `${word}.txt`), `${word}\n`);
        git('add', '.');
        git('commit', '-q', '-m', `Add the ${word} file`);
      }
    },
    steps: [
      {
        name: 'start',
        until: 'first file',
        facts: [
          { says: 'the newest commit is selected', selector: `${ROW} selected name~="third file"`, count: 1 },
          { says: 'the status line says which commit of how many', selector: 'role=status text~="1 of 3"', count: 1 },
        ],
      },
      {
        name: 'down1',
        keys: ['Down'],
        until: '2 of 3',
        facts: [
          { says: 'after Down the second commit is the one selected row', selector: `${ROW} selected name~="second file"`, count: 1 },
          { says: 'the status line says commit 2 of 3', selector: 'role=status text~="2 of 3"', count: 1 },
        ],
      },
      {
        name: 'diff',
        keys: ['Enter'],
        until: 'diff --git',
        facts: [
          { says: "the diff window's current line (its highlighted top row) is no status line", selector: 'role=status name^=commit', count: 0 },
          { says: 'the commit list keeps its selected commit', selector: `${ROW} selected name~="second file"`, count: 1 },
          { says: "the diff window has the keys (its status line alone is bold): its current line is focused", focus: 'name^=commit' },
          { says: "the list window's status line", selector: 'role=status name^="[main]"', count: 1 },
          { says: "the diff window's status line", selector: 'role=status name^="[diff]"', count: 1 },
        ],
      },
      // Tab gives the keys back to the list: its status line is the bold one now.
      { name: 'list-again', keys: ['Tab'], until: 'diff --git', facts: [{ says: 'after Tab the commit list has the keys again: its selected commit is focused', focus: 'name~="second file"' }] },
    ],
  },
  {
    name: 'ranger',
    pkg: 'ranger',
    command: 'ranger',
    args: (work) => [join(work, 'tree')],
    // A sibling of tree, so the parent column is a list with tree selected in it too.
    prepare: (work) => files(work, { 'archive/old.txt': 'old\n', 'tree/alpha/one.txt': 'one\n', 'tree/beta/two.txt': 'two\n', 'tree/gamma/three.txt': 'three\n', 'tree/notes.txt': 'notes\n' }),
    steps: [
      {
        name: 'start',
        until: 'gamma',
        facts: [
          { says: 'the first directory is selected', selector: `${ROW} selected name~=alpha`, count: 1 },
          { says: 'no row spans the parent, current and preview columns', selector: 'name*=alpha.*one\\.txt', count: 0 },
          { says: 'the keys act in the current column (where ranger leaves its hidden cursor): alpha has the focus, not tree in the parent column', focus: 'name~=alpha' },
        ],
      },
      {
        name: 'down1',
        keys: ['Down'],
        until: 'two.txt',
        facts: [
          { says: 'after Down beta is the selected directory', selector: `${ROW} selected name~=beta`, count: 1 },
          { says: 'focus is on beta', focus: 'name~=beta' },
        ],
      },
    ],
  },
  {
    name: 'vifm',
    pkg: 'vifm',
    command: 'vifm',
    args: (work) => [join(work, 'left'), join(work, 'right')],
    prepare: (work) => files(work, { 'left/apple.txt': 'apple\n', 'left/berry.txt': 'berry\n', 'left/cherry.txt': 'cherry\n', 'right/notes.md': 'notes\n', 'right/plan.md': 'plan\n' }),
    steps: [
      // Each pane's list is named by the directory over it; the active (left) pane's current entry has the focus.
      { name: 'start', until: 'plan.md', facts: [
        { says: 'the left pane\'s list is named by its directory', selector: 'role=list name*=/left$', count: 1 },
        { says: 'the right pane\'s list is named by its directory', selector: 'role=list name*=/right$', count: 1 },
        { says: 'the current entry of the active (left) pane is focused', focus: 'name^=../', inside: 'role=list name*=/left$' },
      ] },
      {
        name: 'down1',
        keys: ['Down'],
        until: '2/4',
        facts: [{ says: 'after Down apple.txt is the focused entry of the left pane', focus: 'name~=apple.txt', inside: 'role=list name*=/left$' }],
      },
      {
        name: 'tab',
        keys: ['Tab', 'Down'],
        until: '2/3',
        facts: [{ says: 'after Tab and Down the right pane\'s notes.md is focused', focus: 'name~=notes.md', inside: 'role=list name*=/right$' }],
      },
    ],
  },
  {
    name: 'sc',
    pkg: 'sc',
    command: 'sc',
    args: () => ['sheet.sc'],
    prepare: (work) => files(work, { 'sheet.sc': 'let A0 = 10\nlet B0 = 20\nlet A1 = 30\nlet B1 = A0+A1\n' }),
    steps: [
      // The grid is one table under its column letters, its current cell A0 (10) focused.
      { name: 'start', until: '40.00', facts: [
        { says: 'the grid is one table', selector: 'role=table', count: 1 },
        { says: 'its column letters are column headers', selector: 'role=columnheader name=B', count: 1 },
        { says: 'the current cell A0 (10) is focused', focus: 'role=cell name=10.00' },
      ] },
      // sc names its current cell on its top line once the cursor moves.
      { name: 'right-down', keys: ['Right', 'Down'], until: 'B1 (', facts: [{ says: 'after Right and Down the current cell B1 (A0+A1, 40) is focused', focus: 'role=cell name=40.00' }] },
    ],
  },
  {
    name: 'hexedit',
    pkg: 'hexedit',
    command: 'hexedit',
    args: () => ['data.bin'],
    prepare: (work) => writeFileSync(join(work, 'data.bin'), Buffer.from(Array.from({ length: 600 }, (_, index) => index % 256))),
    steps: [
      { name: 'start', until: '0x0/0x258', facts: [{ says: 'the mode line naming the file and offset is a status line', selector: 'role=status name*=data\\.bin.*0x0/0x258', count: 1 }] },
      // One byte on (two nibbles), at any width (a row holds more bytes on a wider screen).
      { name: 'right1', keys: ['Right', 'Right'], until: '0x1/0x258', facts: [{ says: 'after two Rights the status line shows the next byte\'s offset', selector: 'role=status name~=0x1/0x258', count: 1 }] },
    ],
  },
  {
    name: 'vim-split',
    pkg: 'vim',
    command: 'vim',
    args: (work) => ['-u', 'NONE', '-N', '-O', join(work, 'left.txt'), join(work, 'right.txt')],
    prepare: (work) => files(work, { 'left.txt': lines('alpha', 30), 'right.txt': lines('bravo', 30) }),
    steps: [
      {
        name: 'start',
        until: 'bravo line 1',
        facts: [
          { says: 'no row spans both windows', selector: 'name*=alpha.*bravo', count: 0 },
          { says: 'focus (the cursor) is in the left window', focus: 'name*="^alpha line 1$"' },
          { says: 'the left window has a status line naming its file', selector: 'role=status name~=left.txt', count: 1 },
          { says: 'the right window has a status line naming its file', selector: 'role=status name~=right.txt', count: 1 },
          { says: 'no text line of the buffers is a selected row', selector: `${ROW} selected`, count: 0 },
        ],
      },
      {
        name: 'window-right',
        keys: ['ctrl+w', 'l'],
        until: 'bravo line 1',
        facts: [{ says: 'after ctrl+w l focus is in the right window', focus: 'name*="^bravo line 1$"' }],
      },
    ],
  },
  {
    name: 'nvim-split',
    pkg: 'neovim',
    command: 'nvim',
    args: (work) => ['--clean', '-o', join(work, 'top.txt'), join(work, 'bottom.txt')],
    prepare: (work) => files(work, { 'top.txt': lines('charlie', 30), 'bottom.txt': lines('delta', 30) }),
    steps: [
      {
        name: 'start',
        until: 'delta line 1',
        facts: [
          { says: 'focus (the cursor) is in the top window', focus: 'name*="^charlie line 1$"' },
          { says: 'the top window has a status line naming its file', selector: 'role=status name~=top.txt', count: 1 },
          { says: 'the bottom window has a status line naming its file', selector: 'role=status name~=bottom.txt', count: 1 },
          { says: 'no text line of the buffers is a selected row', selector: `${ROW} selected`, count: 0 },
        ],
      },
      {
        name: 'window-down',
        keys: ['ctrl+w', 'j'],
        until: 'delta line 1',
        facts: [{ says: 'after ctrl+w j focus is in the bottom window', focus: 'name*="^delta line 1$"' }],
      },
    ],
  },
  {
    name: 'nano',
    pkg: 'nano',
    command: 'nano',
    args: (work) => ['--ignorercfiles', join(work, 'memo.txt')],
    prepare: (work) => files(work, { 'memo.txt': 'first memo line\n' }),
    steps: [
      {
        name: 'start',
        until: 'Exit',
        facts: [
          { says: 'the title bar names the file', selector: 'role=status text~=memo.txt', count: 1 },
          { says: '^O Write Out is a key hint', selector: `${ACTION} name="Write Out"`, count: 1 },
          { says: '^X Exit is a key hint', selector: `${ACTION} name=Exit`, count: 1 },
        ],
      },
      {
        name: 'typed',
        type: 'Hello ',
        until: 'Modified',
        facts: [
          { says: 'the title bar says the buffer is modified', selector: 'role=status text~=Modified', count: 1 },
          { says: 'focus (the cursor) is on the edited line', focus: 'name~="Hello first memo line"' },
        ],
      },
    ],
  },
  {
    name: 'htop',
    pkg: 'htop',
    command: 'htop',
    args: () => ['--sort-key', 'PID', '--filter', 'sleep 8640'],
    env: { HTOPRC: '/dev/null' },
    sleepers: ['86401', '86402', '86403'],
    cols: 100,
    rows: 30,
    steps: [
      {
        name: 'start',
        until: 'sleep 86403',
        facts: [
          { says: 'the process list has one selected row, the first sleeper', selector: `${ROW} selected name~="sleep 86401"`, count: 1 },
          { says: 'F10 Quit is a key hint', selector: `${ACTION} name=Quit`, count: 1 },
          { says: "a sleeper's command line is the cell under Command", selector: 'role=cell name="sleep 86402"', count: 1 },
        ],
      },
      {
        name: 'down2',
        keys: ['Down', 'Down'],
        until: 'sleep 86403',
        facts: [{ says: 'after two Down presses the third sleeper is the one selected row', selector: `${ROW} selected name~="sleep 86403"`, count: 1 }],
      },
    ],
  },
  {
    name: 'top',
    pkg: 'procps',
    command: 'top',
    args: () => ['-d', '5'],
    steps: [
      {
        name: 'start',
        until: 'PID',
        facts: [
          { says: 'the process table has a column header', selector: 'role*=^(header|columnheader)$ name*=PID.*USER', atLeast: 1 },
          { says: 'its columns are named one by one', selector: 'role=columnheader name=%CPU', count: 1 },
          { says: 'the task counts are one line of text, from Tasks: to zombie', selector: 'role=text name^=Tasks: name~=zombie', count: 1 },
        ],
      },
      {
        name: 'user-prompt',
        keys: ['u'],
        until: 'Which user',
        facts: [{ says: 'the "Which user" prompt is the focused input', focus: 'role=textbox name~="Which user"' }],
      },
    ],
  },
  {
    name: 'less',
    pkg: 'less',
    command: 'less',
    args: (work) => [join(work, 'story.txt')],
    prepare: (work) => files(work, { 'story.txt': lines('story', 80) }),
    steps: [
      { name: 'start', until: 'story line 1', facts: [{ says: 'the prompt line names the file', selector: 'role=status name~=story.txt', count: 1 }] },
      { name: 'end', keys: ['G'], until: '(END)', facts: [{ says: 'at the end the prompt line says (END)', selector: 'role=status name~=(END)', count: 1 }] },
    ],
  },
  {
    name: 'man',
    pkg: 'man-db',
    command: 'man',
    args: () => ['ls'],
    env: { MANPAGER: 'less', PAGER: 'less', MANWIDTH: '80' },
    steps: [
      {
        name: 'start',
        until: 'Manual page',
        facts: [{ says: 'the status line names the manual page and line', selector: 'role=status name~="Manual page ls(1) line 1"', count: 1 }],
      },
      { name: 'end', keys: ['G'], until: '(END)', facts: [{ says: 'at the end the status line says (END)', selector: 'role=status name~=(END)', count: 1 }] },
    ],
  },
  {
    name: 'dialog-menu',
    pkg: 'dialog',
    command: 'dialog',
    args: () => ['--title', 'Fruit', '--menu', 'Pick a fruit', '15', '50', '4', 'apple', 'Red fruit', 'banana', 'Yellow fruit', 'cherry', 'Small fruit'],
    steps: [
      { name: 'start', until: 'cherry', facts: [{ says: 'apple is selected first', selector: `${ROW} selected name~=apple`, count: 1 }] },
      {
        name: 'down2',
        keys: ['Down', 'Down'],
        until: 'cherry',
        facts: [
          { says: 'after two Down presses cherry is the one selected item', selector: `${ROW} selected name~=cherry`, count: 1 },
          { says: 'the menu is inside the "Fruit" dialog', selector: 'role=dialog name=Fruit >> role=list', count: 1 },
        ],
      },
      { name: 'tab', keys: ['Tab'], until: 'Cancel', facts: [{ says: 'after Tab the Cancel button is focused', focus: 'role=button name=Cancel' }] },
    ],
  },
  {
    name: 'dialog-yesno',
    pkg: 'dialog',
    command: 'dialog',
    args: () => ['--title', 'Confirm', '--yesno', 'Delete all files?', '7', '40'],
    steps: [
      { name: 'start', until: 'Delete', facts: [{ says: 'Yes is the focused button', focus: 'role=button name=Yes' }] },
      { name: 'tab', keys: ['Tab'], until: 'Delete', facts: [{ says: 'after Tab No is the focused button', focus: 'role=button name=No' }] },
    ],
  },
  {
    name: 'dialog-checklist',
    pkg: 'dialog',
    command: 'dialog',
    args: () => ['--checklist', 'Toppings', '12', '50', '4', 'cheese', 'Cheese', 'on', 'ham', 'Ham', 'off', 'olives', 'Olives', 'off'],
    steps: [
      { name: 'start', until: 'olives', facts: [{ says: 'cheese is checked, ham is not', selector: 'role=checkbox checked', count: 1 }] },
      {
        name: 'check-ham',
        keys: ['Down', 'Space'],
        until: 'olives',
        facts: [
          { says: 'after Down and Space ham is checked too', selector: 'role=checkbox checked name~=ham', count: 1 },
          { says: 'two boxes are checked', selector: 'role=checkbox checked', count: 2 },
        ],
      },
      {
        // dialog lights the list's current item and one button at once: arrows and Space act on the item,
        // Tab moves between the buttons and Enter presses the lit one, where dialog puts the cursor.
        name: 'tab',
        keys: ['Tab'],
        until: 'olives',
        facts: [
          { says: 'after Tab the Cancel button is focused', focus: 'role=button name=Cancel' },
          { says: 'ham stays the current item, the one Space toggles', selector: 'role=checkbox selected name~=ham', count: 1 },
          { says: 'OK is no longer lit', selector: 'role=button name=OK selected', count: 0 },
        ],
      },
    ],
  },
  {
    name: 'whiptail-radiolist',
    pkg: 'whiptail',
    command: 'whiptail',
    args: () => ['--title', 'Size', '--radiolist', 'Pick a size', '12', '50', '3', 'small', 'Small cup', 'ON', 'medium', 'Medium cup', 'OFF', 'large', 'Large cup', 'OFF'],
    steps: [
      { name: 'start', until: 'large', facts: [{ says: 'small is the chosen radio', selector: 'role=radio checked name~=small', count: 1 }] },
      {
        name: 'pick-large',
        keys: ['Down', 'Down', 'Space'],
        until: 'large',
        facts: [{ says: 'after Down Down Space large is the one chosen radio', selector: 'role=radio checked', count: 1 }, { says: 'large is chosen', selector: 'role=radio checked name~=large', count: 1 }],
      },
      { name: 'tab', keys: ['Tab'], until: 'large', facts: [{ says: 'after Tab the Ok button is focused', focus: 'role=button name=Ok' }] },
    ],
  },
  {
    name: 'whiptail-yesno',
    pkg: 'whiptail',
    command: 'whiptail',
    args: () => ['--title', 'Install', '--yesno', 'Continue the installation?', '8', '45'],
    steps: [
      { name: 'start', until: 'Continue', facts: [{ says: 'Yes is the focused button', focus: 'role=button name=Yes' }] },
      { name: 'right', keys: ['Right'], until: 'Continue', facts: [{ says: 'after Right No is the focused button', focus: 'role=button name=No' }] },
    ],
  },
  {
    name: 'w3m',
    pkg: 'w3m',
    command: 'w3m',
    args: (work) => ['-no-mouse', join(work, 'page.html')],
    prepare: (work) =>
      files(work, {
        'page.html': '<html><head><title>Corpus page</title></head><body><h1>Corpus page</h1><p><a href="first.html">First link</a></p><p><a href="second.html">Second link</a></p></body></html>\n',
      }),
    steps: [
      { name: 'start', until: 'Second link', facts: [{ says: 'the page text is there', selector: 'name~="Second link"', count: 1 }] },
      {
        name: 'tab2-peek',
        // Tab moves to the next link; u shows the URL of the link under the cursor on the last line.
        keys: ['Tab', 'Tab', 'u'],
        until: 'second.html',
        facts: [
          { says: 'after two Tabs and u the last line shows the second link target', selector: 'text~=second.html', atLeast: 1 },
          { says: 'focus (the cursor) is on the second link', focus: 'name~="Second link"' },
        ],
      },
    ],
  },
  {
    name: 'calcurse',
    pkg: 'calcurse',
    command: 'calcurse',
    args: (work) => ['-D', join(work, 'calendar')],
    cols: 100,
    rows: 30,
    prepare: (work) => mkdirSync(join(work, 'calendar'), { recursive: true }),
    steps: [
      {
        name: 'start',
        until: 'Calendar',
        facts: [
          { says: 'appointments, calendar and todo are three panels', selector: 'role=panel name*=(?i)^(appointments|calendar|todo)', count: 3 },
          { says: 'Quit is a key hint', selector: `${ACTION} name=Quit`, count: 1 },
          { says: 'the calendar panel is active', inside: 'role=panel name~=Calendar' },
        ],
      },
      { name: 'tab', keys: ['Tab'], until: 'Calendar', facts: [{ says: 'after Tab the appointments panel is active (its border turns red)', inside: 'role=panel name~=appointments' }] },
    ],
  },
  {
    name: 'aptitude',
    pkg: 'aptitude',
    command: 'aptitude',
    // -s: simulate, so it opens the package database read-only and takes no dpkg lock (a running
    // aptitude would otherwise stop every apt-get on the machine).
    args: () => ['-s'],
    cols: 100,
    rows: 30,
    steps: [
      {
        name: 'start',
        until: 'Installed Packages',
        facts: [
          { says: 'the menu bar holds an Actions menu', selector: `${ACTION} name=Actions`, count: 1 },
          { says: 'the hint line holds a Quit key hint', selector: `${ACTION} name=Quit`, count: 1 },
          { says: 'one package category row is selected', selector: `${ROW} selected name*="^--- "`, count: 1 },
        ],
      },
      {
        name: 'end',
        keys: ['End'],
        // The description pane of the last category; which categories come before it depends on the machine.
        until: 'These packages do not exist',
        facts: [{ says: 'after End the last category, Virtual Packages, is the one selected row', selector: `${ROW} selected name~="Virtual Packages"`, count: 1 }],
      },
    ],
  },
  {
    name: 'curses-panes',
    pkg: 'python3',
    command: 'python3',
    args: () => [CURSES_APP],
    steps: [
      {
        name: 'start',
        until: 'Item 1 of 5',
        facts: [
          { says: 'the fruit and detail panes are separate panels', selector: 'role=panel', count: 2 },
          { says: 'Apple is selected', selector: `${ROW} selected name~=Apple`, count: 1 },
          { says: 'the status line counts the items', selector: 'role=status name~="Item 1 of 5"', count: 1 },
          { says: 'F10 Quit is a key hint', selector: `${ACTION} name=Quit`, count: 1 },
        ],
      },
      {
        name: 'down2',
        keys: ['Down', 'Down'],
        until: 'Item 3 of 5',
        facts: [
          { says: 'after two Down presses Cherry is the one selected row', selector: `${ROW} selected`, count: 1 },
          { says: 'Cherry is selected', selector: `${ROW} selected name~=Cherry`, count: 1 },
          { says: 'the status line says item 3 of 5', selector: 'role=status name~="Item 3 of 5"', count: 1 },
        ],
      },
      {
        name: 'tab',
        keys: ['Tab'],
        until: 'Details active',
        facts: [
          { says: 'after Tab the detail pane is active', inside: 'role=panel name=Details' },
          { says: 'the detail pane\'s first row is the one selected (reverse video) row', selector: `${ROW} selected`, count: 1 },
          { says: 'it is the colour row', selector: `${ROW} selected name~="Colour: dark red"`, count: 1 },
        ],
      },
    ],
  },
];
