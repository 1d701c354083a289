// GTK3 developer apps (the devtools trial): Geany's Scintilla editor, and a WebKitGTK page embedded as Devhelp embeds its
// documentation (the GTK3 fixture's --web-view), judged by pyatspi.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { callOk } from '../helpers/tools.js';

describe('GTK3 developer apps (Geany, a WebKitGTK page), judged by pyatspi', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;

  before(async () => {
    user = await startUserDesktop('cup-devtools-home-');
    desktop = user.desktop;
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  test('geany: two type_text calls into the Scintilla editor land in order, each after the last, as typing does; a click on the tab shown already sends nothing; the Find field is named by the label of its combo box', async () => {
    const file = join(user.home, 'hello.c');
    writeFileSync(file, 'int main(void)\n{\n\treturn 0;\n}\n');
    const { process, window } = await desktop.launch('geany', ['--new-instance', '--no-session', file], /hello\.c/, 20_000, user.env());
    const oracle = new PyatspiOracle(desktop.env());
    try {
      const editor = 'role=textbox focused';
      await callOk(user.context, 'type_text', { window_id: window.id, pid: window.pid, selector: editor, text: '// first\n' });
      await callOk(user.context, 'type_text', { window_id: window.id, pid: window.pid, selector: editor, text: '// second\n' });
      // The first frame of the app: the title has gained Geany's '*' for a modified document.
      const text = (await oracle.findWithState(window.pid, '', 'text', 'focused')).text ?? '';
      assert.match(text, /^\/\/ first\n\/\/ second\nint main\(void\)/, `pyatspi reads the editor's text: ${JSON.stringify(text.slice(0, 60))}`);

      // The sidebar's Symbols tab is the one shown: a click on it asks for what is so, and sends nothing.
      assert.ok((await oracle.find(window.pid, '', 'page tab', 'Symbols')).states?.includes('selected') === true, 'the case is exercised: pyatspi reads Symbols selected');
      const shown = await callOk(user.context, 'click', { window_id: window.id, pid: window.pid, selector: 'role=tab name=Symbols' });
      assert.equal(shown.structured.effect, 'confirmed', shown.summary);
      assert.equal(shown.structured.path, 'none', shown.summary);
      assert.equal(shown.structured.escalation, undefined, 'no advice to click it again in the foreground');
      // Another tab is still clicked: pyatspi reads it selected after.
      const other = await callOk(user.context, 'click', { window_id: window.id, pid: window.pid, selector: 'role=tab name=Documents' });
      assert.equal(other.structured.path, 'x11_atspi', other.summary);
      assert.ok((await oracle.find(window.pid, '', 'page tab', 'Documents')).states?.includes('selected') === true, 'pyatspi reads Documents selected');
      // The Find dialog's field lies in a combo box with an entry, which its label names: the field is named so too.
      const menu = await callOk(user.context, 'invoke_menu', { window_id: window.id, pid: window.pid, path: ['Search', 'Find...'] });
      const find = (menu.structured.new_windows as { window_id: number; title: string }[] | undefined)?.find((opened) => opened.title === 'Find');
      assert.ok(find, menu.summary);
      const typed = await callOk(user.context, 'set_value', { window_id: find.window_id, pid: window.pid, selector: 'role=textbox name="Search for:"', value: 'return' });
      assert.equal(typed.structured.effect, 'confirmed', typed.summary);
      const field = await oracle.findWithState(window.pid, 'Find', 'text', 'editable');
      assert.equal(field.text, 'return', 'pyatspi reads the text in the dialog\'s field');
      assert.equal(field.name, '', 'the case is exercised: the field has no name of its own');
    } finally {
      oracle.close();
      process.kill('SIGKILL');
    }
  });

  test('a WebKitGTK page, embedded through an ATK socket from its web process, is read where it shows and clicked there', async () => {
    const title = 'CUP Fixture Web View';
    const { process, window } = await desktop.launchFixture('gtk3', { title, extraArgs: ['--web-view'] });
    const oracle = new PyatspiOracle(desktop.env());
    try {
      // The page loads in its web process a moment after the window shows.
      let link = await oracle.find(window.pid, title, 'link', 'Read the changes');
      for (const deadline = Date.now() + 15_000; !link.found && Date.now() < deadline; await sleep(200)) link = await oracle.find(window.pid, title, 'link', 'Read the changes');
      assert.ok(link.found && link.states?.includes('showing'), 'the case is exercised: pyatspi sees the page\'s link showing');
      // The socket lists no children (GetChildren) and counts one; WebKit's scroll pane offers Action and answers no
      // GetActions; the socket and the web process's root and scroll pane say neither visible nor showing.
      const state = await callOk(user.context, 'get_window_state', { window_id: window.id, pid: window.pid, include_screenshot: false });
      assert.ok(!state.structured.degraded, `the read is whole, not taken for a hung app: ${state.summary}`);
      const [x, y, w, h] = link.extents!;
      assert.match(state.body ?? '', new RegExp(`lnk "Read the changes" ${x},${y} ${w}x${h} \\[clk\\]`), state.body);
      assert.match(state.body ?? '', /hdg "Release notes"/, 'the page\'s heading is read too');
      // A real click lands on the link, not refused as hidden: the page writes what it did, read by pyatspi.
      await callOk(user.context, 'click', { window_id: window.id, pid: window.pid, selector: 'role=link name="Read the changes"', delivery_mode: 'foreground' });
      let texts: string[] = [];
      for (const deadline = Date.now() + 5_000; !texts.includes('Changes read') && Date.now() < deadline; await sleep(100)) texts = await oracle.texts(window.pid, title);
      assert.ok(texts.includes('Changes read'), `pyatspi reads the page's answer: ${JSON.stringify(texts)}`);
    } finally {
      oracle.close();
      process.kill('SIGKILL');
    }
  });
});
