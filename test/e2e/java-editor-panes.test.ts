import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LinuxToolContext } from '../../src/server/session.js';
import { fixtureApps, TestDesktop } from '../helpers/desktop.js';
import { callOk, testContext, type WindowState } from '../helpers/tools.js';

/**
 * Swing's editor panes (JEditorPane), as Groovy Console has them: unnamed, and described by their content type. A
 * description is the name of last resort of an unnamed control (its tool tip), but "text/plain" names no editor:
 * Groovy Console's script and output panes read textbox "text/plain" and textbox "text/html". Judged by pyatspi.
 */
describe('Swing editor panes described by their content type', () => {
  const title = 'CUP Swing Editors';
  let desktop: TestDesktop;
  let context: LinuxToolContext;
  let pid: number;
  let windowId: number;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    const launched = await callOk(context, 'launch_app', { name: 'java', additional_arguments: [join(fixtureApps, 'SwingEditors.java'), title], creates_new_application_instance: true });
    pid = launched.structured.pid as number;
    windowId = (launched.structured.windows as { window_id: number }[])[0]!.window_id;
  });

  after(async () => {
    for (const started of [pid, otherPid]) if (started) process.kill(started, 'SIGKILL');
    await desktop?.stop();
  });

  let otherPid = 0;

  /** The active window, as xdotool reads it from the X server. */
  const activeWindow = () => Number(spawnSync('xdotool', ['getactivewindow'], { env: desktop.env(), encoding: 'utf8', timeout: 5000 }).stdout.trim());

  /** Each text object's and push button's role, name, description and text, as pyatspi reads them, one line each. */
  function pyatspiTexts(): string[] {
    const script = [
      'import pyatspi',
      `app = [a for a in pyatspi.Registry.getDesktop(0) if a and a.get_process_id() == ${pid}][0]`,
      'for o in pyatspi.findAllDescendants(app, lambda o: o.getRoleName() in ("text", "push button")):',
      '    text = o.queryText().getText(0, -1) if o.getRoleName() == "text" else ""',
      '    print("|".join([o.getRoleName(), o.name, o.description, text]))',
    ].join('\n');
    return spawnSync('/usr/bin/python3', ['-c', script], { env: desktop.env(), encoding: 'utf8', timeout: 15_000 }).stdout.trim().split('\n');
  }

  test('an editor pane described only by its content type has no name, and a button by its tool tip keeps its', async () => {
    const onBus = pyatspiTexts();
    assert.ok(onBus.includes('text||text/plain|println 42'), `pyatspi: the script pane, unnamed, described text/plain: ${onBus.join(' / ')}`);
    assert.ok(onBus.some((line) => line.startsWith('text||text/html|')), `pyatspi: the output pane, unnamed, described text/html: ${onBus.join(' / ')}`);
    assert.ok(onBus.includes('push button||Run Script|'), `pyatspi: the button, unnamed, described by its tool tip: ${onBus.join(' / ')}`);
    const state = (await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false })).structured as unknown as WindowState;
    const boxes = state.elements.filter((element) => element.role === 'textbox');
    assert.ok(boxes.some((box) => box.value === 'println 42'), JSON.stringify(boxes));
    assert.deepEqual(boxes.filter((box) => /^text\//.test(box.name)), [], `no textbox is named by a content type: ${JSON.stringify(boxes)}`);
    assert.ok(state.elements.some((element) => element.role === 'button' && element.name === 'Run Script'), 'the button is named by its tool tip');
  });

  test('real keys sent to an editor pane while another window is active give that window its activation back', async () => {
    // Groovy Console's script editor, given real ctrl+Return from behind another window, read "window ... stays active
    // with the text field it opened for editing": Java announces the focused field showing as its window activates.
    const other = await callOk(context, 'launch_app', { name: 'java', additional_arguments: [join(fixtureApps, 'SwingEditors.java'), 'CUP Swing Other'], creates_new_application_instance: true });
    otherPid = other.structured.pid as number;
    const otherWindow = (other.structured.windows as { window_id: number }[])[0]!.window_id;
    await callOk(context, 'bring_to_front', { window_id: otherWindow });
    assert.equal(activeWindow(), otherWindow, 'xdotool: the other window is active');
    const state = (await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false })).structured as unknown as WindowState;
    const script = state.elements.find((element) => element.role === 'textbox' && element.value === 'println 42');
    assert.ok(script, JSON.stringify(state.elements));
    const pressed = await callOk(context, 'press_key', { window_id: windowId, element_index: script.index, key: 'end', delivery_mode: 'foreground' });
    const evidence = ((pressed.structured.evidence as string[] | undefined) ?? []).join('\n');
    assert.doesNotMatch(evidence, /opened for editing/, evidence);
    assert.equal(activeWindow(), otherWindow, `xdotool: the other window is active again: ${pressed.summary}`);
  });
});
