// GTK3 developer apps outside the fixtures (the devtools trial): Geany's Scintilla editor, judged by pyatspi.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { callOk } from '../helpers/tools.js';

describe('GTK3 developer apps (Geany), judged by pyatspi', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;

  before(async () => {
    user = await startUserDesktop('cup-devtools-home-');
    desktop = user.desktop;
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  test('geany: two type_text calls into the Scintilla editor land in order, each after the last, as typing does', async () => {
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
    } finally {
      oracle.close();
      process.kill('SIGKILL');
    }
  });
});
