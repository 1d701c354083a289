// GTK3 apps as GIMP and Inkscape build them, where a new user found the driver wrong: items of a hidden notebook page
// placed two billion pixels off, and a Value with no number (GIMP's progress bar) whose reading made ATK's bridge
// abort the app. Judged by pyatspi and by the app still running.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

describe('GTK3 forms of graphics apps, judged by pyatspi', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Forms Fixture', size: '480x800', extraArgs: ['--hidden-icons'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('the items of a hidden notebook page, which GTK3 places at -2^31 plus their offset, have no place', async () => {
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    // Unnamed on the bus: their words are their Text, which names them.
    const icons = walked.filter((node) => node.role === 'icon');
    assert.equal(icons.length, 3, JSON.stringify(walked.filter((node) => node.role === 'icon')));
    // The case: a billion pixels and more left of the screen, and not at -2^31 exactly.
    assert.ok(icons.every((node) => node.extents !== null && node.extents[0] < -(2 ** 30) && node.extents[0] !== -(2 ** 31)), JSON.stringify(icons.map((node) => node.extents)));

    const result = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, pid: window.pid, include_screenshot: false });
    const items = (result.structured as { elements: Element[] }).elements.filter((element) => ['A4', 'Letter', 'Legal'].includes(element.name));
    assert.equal(items.length, 3, result.body);
    assert.deepEqual(items.map((element) => element.bounds), [undefined, undefined, undefined], result.body);
    assert.ok(items.every((element) => element.states.includes('offscreen')), result.body);
    assert.doesNotMatch(result.body ?? '', /-21474836\d\d/, 'no coordinate of the sentinel is shown');
  });

  test('a Value that has no number (GAIL\'s progress bar) is read without aborting the app', async () => {
    const meter = await fixtures.desktop.launchFixture('gtk3', { title: 'Meter Fixture', extraArgs: ['--unvalued-meter'] });
    // The case: pyatspi's Get of its minimum fails (the toolkit cannot give it).
    const script = [
      'import pyatspi',
      'from atspi_frames import find_frame',
      `frame = find_frame(${meter.window.pid}, "Meter Fixture")`,
      'meter = pyatspi.findDescendant(frame, lambda node: node.getRoleName() == "progress bar")',
      'try:',
      '    meter.queryValue().minimumValue',
      '    print("read")',
      'except Exception:',
      '    print("failed")',
    ].join('\n');
    const run = spawnSync('/usr/bin/python3', ['-c', script], {
      env: { ...fixtures.desktop.env(), PYTHONPATH: join(repositoryRoot, 'test', 'fixtures', 'oracle') },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.stdout.trim(), 'failed', `pyatspi: ${run.stdout} ${run.stderr}`);

    const read = await callOk(fixtures.context, 'get_window_state', { pid: meter.window.pid, window_id: meter.window.id, detail: 'full', include_screenshot: false });
    const state = read.structured as { degraded: boolean; elements: Element[] };
    assert.equal(state.degraded, false, read.summary);
    assert.ok(state.elements.some((element) => element.role === 'progressbar' && element.name === 'Meter'), read.body);
    assert.equal(meter.process.exitCode, null, 'the app still runs');
    assert.equal(meter.process.signalCode, null, 'the app still runs');
    assert.ok((await fixtures.oracle.statusText(meter.window.pid, meter.window.title)).startsWith('counter='), 'pyatspi: the app still answers');
  });
});
