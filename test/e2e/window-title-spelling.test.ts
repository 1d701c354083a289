// wait_for's window_title against a title whose accented letter the app spells decomposed (O + U+0308, as names
// made on macOS are), written composed by the agent: the window is found. xprop reads the title the app set.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk } from '../helpers/tools.js';

describe('a window title in the other spelling of its accented letters', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;
  const decomposed = 'O\u0308ffnen Fenster';

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: decomposed, rows: 3 });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('wait_for window_title "öffnen" (composed) finds it', async () => {
    const title = execFileSync('xprop', ['-id', String(window.id), '_NET_WM_NAME'], { env: fixtures.desktop.env(), encoding: 'utf8', timeout: 10_000 });
    assert.ok(title.includes(decomposed), `xprop: the app's title is decomposed: ${title}`);
    const found = (await callOk(fixtures.context, 'wait_for', { window_title: '\u00f6ffnen', timeout_ms: 3000 })).structured as { windows?: { window_id: number }[] };
    assert.ok(found.windows?.some((entry) => entry.window_id === window.id), JSON.stringify(found));
  });
});
