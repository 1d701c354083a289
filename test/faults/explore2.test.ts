import { test } from 'node:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDesktop } from '../helpers/desktop.js';
import { accessibleWindowState, testContext } from '../helpers/tools.js';
import { runTool } from '../../src/tools/run.js';

test('explore stopped app', async () => {
  const desktop = await TestDesktop.start();
  const context = testContext();
  try {
    const a = await desktop.launchFixture('gtk3', { title: 'Will hang' });
    const { state } = await accessibleWindowState(context, a.window);
    const target = { pid: a.window.pid, window_id: a.window.id };
    const el = (name: string) => state.elements.find((e) => e.name === name)!.index;
    const t0 = await runTool('type_text', { ...target, element_index: el('Name field'), text: 'hello' }, context);
    console.log('type', t0.ok, t0.summary.slice(0, 100));
    const c0 = await runTool('hotkey', { ...target, element_index: el('Name field'), keys: ['ctrl', 'a'] }, context);
    const c1 = await runTool('hotkey', { ...target, element_index: el('Name field'), keys: ['ctrl', 'c'] }, context);
    console.log('copy', c0.ok, c1.ok, c1.summary.slice(0, 100));
    console.log('clip before', (await runTool('clipboard_read', {}, context)).summary.slice(0, 100));
    await runTool('get_window_state', target, context);
    const dir = mkdtempSync(join(tmpdir(), 'rec-'));
    process.kill(a.process.pid!, 'SIGSTOP');
    const calls: [string, Record<string, unknown>][] = [
      ['get_window_state', target],
      ['find_elements', { ...target, selector: 'role=button' }],
      ['wait_for', { ...target, selector: 'name=Nothing', timeout_ms: 1000 }],
      ['wait_for', { ...target, selector: 'role=button name=Increment' }],
      ['wait_for', { pid: a.window.pid, selector: 'role=button name=Increment' }],
      ['wait_for', { pid: a.window.pid, window_title: 'Will hang' }],
      ['run_actions', { ...target, steps: [{ tool: 'wait', arguments: { ms: 10 } }, { tool: 'click', arguments: { element_index: el('Increment') } }] }],
      ['run_actions', { ...target, steps: [{ tool: 'find_elements', arguments: { selector: 'role=button' } }] }],
      ['page', { ...target, action: 'get_text' }],
      ['page', { ...target, action: 'query_dom', css_selector: 'button' }],
      ['invoke_menu', { ...target, path: ['Edit', 'Copy'] }],
      ['clipboard_read', {}],
      ['clipboard_write', { text: 'x' }],
      ['clipboard_read', {}],
      ['set_value', { ...target, element_index: el('Volume'), value: '30' }],
      ['type_text', { ...target, text: 'abc' }],
      ['press_key', { ...target, key: 'return' }],
      ['scroll', { ...target, direction: 'down' }],
      ['click', { ...target, x: 10, y: 10 }],
      ['click', { ...target, element_index: el('Increment'), delivery_mode: 'foreground' }],
      ['list_apps', {}],
      ['list_windows', {}],
      ['get_accessibility_tree', {}],
      ['bring_to_front', target],
      ['set_window_frame', { ...target, x: 10, y: 10, width: 400, height: 500 }],
      ['zoom', { ...target, x1: 0, y1: 0, x2: 50, y2: 50 }],
      ['start_recording', { output_dir: dir }],
      ['click', { ...target, element_index: el('Increment') }],
      ['stop_recording', {}],
      ['health_report', {}],
      ['launch_app', { name: '/usr/bin/python3' }],
    ];
    for (const [name, args] of calls) {
      const t = Date.now();
      const r = await runTool(name, args, context);
      console.log(`${Date.now() - t} ms ${name} ${r.ok} ${r.structured.error ?? ''} ${r.summary.replace(/\n/g, ' | ').slice(0, 220)}`);
    }
    process.kill(a.process.pid!, 'SIGCONT');
  } finally {
    context.desktop.close();
    await desktop.stop();
  }
});
