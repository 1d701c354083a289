// Clicks an agent sends on one spot in separate calls are single clicks, as the app counts them: a foreground click
// on a file list's row, sent again within GTK's double-click time (a call without the diff's readings takes less),
// was its double click's second press, and opened the file. The fixture's own line says what the row did.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk } from '../helpers/tools.js';

describe('clicks on one spot in separate calls', () => {
  let fixtures: FixtureDesktop;
  let files: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    files = await fixtures.launch('gtk3', { title: 'Files', rows: 3, extraArgs: ['--file-list'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  const row = 'name="File list" >> role=cell name="beta.txt" [index=0]';

  test('a row clicked in the foreground four times, back to back: no click opens it; a double_click does', async () => {
    for (let i = 0; i < 4; i++) {
      // Every other call without the diff, the way an agent that turned it off clicks: faster than the double-click time.
      const clicked = await callOk(fixtures.context, 'click', { window_id: files.id, selector: row, delivery_mode: 'foreground', ...(i % 2 === 0 ? { diff: false } : {}) });
      assert.equal((await fixtures.status(files)).lastKey, '', `the fixture: click ${i + 1} opened the row (${clicked.summary})`);
    }
    await callOk(fixtures.context, 'double_click', { window_id: files.id, selector: row, delivery_mode: 'foreground' });
    assert.equal((await fixtures.waitForStatus(files, (status) => status.lastKey !== '')).lastKey, 'activated:beta.txt', 'the fixture: the double click opened it');
  });
});
