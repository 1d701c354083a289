import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { desktopRig } from '../helpers/desktop-rig.js';
import { pageUrl } from '../helpers/page-suite.js';
import { callOk } from '../helpers/tools.js';

// Chromium started as a user or a script starts it, not through launch_app: without --force-renderer-accessibility
// it registers on the bus and shows its window with nothing in it, for as long as it runs. pyatspi, reading the
// window itself, finds none of the page's words either.

describe('chromium started without its accessibility switched on', () => {
  const profile = mkdtempSync(join(tmpdir(), 'cup-chromium-off-'));
  after(() => rmSync(profile, { recursive: true, force: true }));
  const rig = desktopRig();

  test('its reading says it was started without accessibility and names launch_app, not that it may not support any', async () => {
    const root = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    const args = [...root, `--user-data-dir=${profile}`, '--password-store=basic', '--no-first-run', '--no-default-browser-check', '--disable-gpu', pageUrl('first-point.html')];
    const { window } = await rig.desktop.launch('chromium', args, /^CUP Web First Point/, 60_000, { GNOME_ACCESSIBILITY: '1' });
    const state = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    assert.deepEqual((await rig.oracle.texts(window.pid, window.title)).filter((text) => /clicked|Go/.test(text)), [], "pyatspi reads none of the page's words");
    const reason = String(state.structured.degraded_reason);
    assert.match(reason, /started without its accessibility switched on/, reason);
    assert.match(reason, /launch_app/, reason);
    assert.match(reason, /--force-renderer-accessibility/, reason);
  });
});
