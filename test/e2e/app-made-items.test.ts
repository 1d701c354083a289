// Items whose accessible objects the app makes itself rather than its toolkit, as Caja's icon view makes its file
// icons: they say neither enabled nor sensitive, and the app aborts when asked the name of an action past their
// count. The fixture's --canvas-icons draws two such icons; judged by pyatspi and the fixture's status label.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { runTool } from '../../src/tools/run.js';
import { callOk, type Element } from '../helpers/tools.js';

describe('items an app makes itself (Caja\'s file icons), judged by pyatspi', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Canvas Fixture', extraArgs: ['--canvas-icons'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** What pyatspi reads of the icon: its states' names and its box on screen. */
  const icon = (name: string) => {
    const run = spawnSync(
      '/usr/bin/python3',
      [
        '-c',
        [
          'import pyatspi',
          'from atspi_frames import find_frame',
          `frame = find_frame(${window.pid}, ${JSON.stringify(window.title)})`,
          `icon = pyatspi.findDescendant(frame, lambda node: node.getRoleName() == "icon" and node.name == ${JSON.stringify(name)})`,
          'box = icon.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)',
          'print(" ".join(pyatspi.stateToString(state) for state in icon.getState().getStates()), "|", box.x, box.y, box.width, box.height)',
        ].join('\n'),
      ],
      { env: { ...fixtures.desktop.env(), PYTHONPATH: join(repositoryRoot, 'test', 'fixtures', 'oracle') }, encoding: 'utf8', timeout: 30_000 },
    );
    const [states, box] = run.stdout.trim().split(' | ');
    assert.ok(box, `pyatspi: ${run.stdout} ${run.stderr}`);
    const [x, y, w, h] = box.split(' ').map(Number) as [number, number, number, number];
    return { states: states!.split(' '), centre: { x: x + w / 2, y: y + h / 2 } };
  };
  /** The app's process runs (a process that aborted stays a zombie until the desktop reaps it). */
  const alive = () => {
    try {
      return !/^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${window.pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };

  /** A click at the icon's centre, in window pixels (pyatspi's box, less the window's place). */
  const clickAt = async (name: string) => {
    const { centre } = icon(name);
    const listed = (await callOk(fixtures.context, 'list_windows', { pid: window.pid })).structured as { windows: { window_id: number; bounds: { x: number; y: number } }[] };
    const bounds = listed.windows.find((each) => each.window_id === window.id)!.bounds;
    return runTool('click', { window_id: window.id, x: Math.round(centre.x - bounds.x), y: Math.round(centre.y - bounds.y) }, fixtures.context);
  };

  test('a click at an icon whose app aborts on an action name past the count leaves the app running', async () => {
    // Caja aborted (g_assert (i < LAST_ACTION)) at a click on a file: the driver asked for the first three action names
    // along with the count, and Caja's icons have two.
    const result = await clickAt('two.txt');
    assert.notEqual(result.structured.error, 'window_gone', result.summary);
    assert.ok(alive(), `the app still runs (${result.summary})`);
    assert.match(await fixtures.oracle.statusText(window.pid, window.title), /^counter=/, 'pyatspi: the app still answers');
  });

  test('icons their app marks neither enabled nor sensitive, in a view that marks none of them, are not disabled: a click opens one', async () => {
    // Caja's files read {dis} and a click on one was refused (element_disabled), where a person opens it.
    assert.deepEqual(icon('one.txt').states.filter((state) => ['enabled', 'sensitive'].includes(state)), [], 'pyatspi: the icon says neither');
    const read = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=img name~=.txt' });
    const found = (read.structured as { matches: Element[] }).matches;
    assert.deepEqual(found.map((element) => [element.name, element.states.includes('disabled')]), [['one.txt', false], ['two.txt', false]], read.summary);

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'name=one.txt' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    assert.equal((await fixtures.status(window)).lastKey, 'opened:one.txt', `pyatspi: the icon was opened (${clicked.summary})`);
    // A click at its point in the window is not refused either.
    const atPoint = await clickAt('two.txt');
    assert.equal(atPoint.ok, true, atPoint.summary);
    assert.equal((await fixtures.status(window)).lastKey, 'opened:two.txt', `pyatspi: the icon was opened (${atPoint.summary})`);
  });
});
