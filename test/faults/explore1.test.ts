import { test } from 'node:test';
import { TestDesktop } from '../helpers/desktop.js';
import { accessibleWindowState, testContext } from '../helpers/tools.js';
import { runTool } from '../../src/tools/run.js';

test('explore kill mid walk', async () => {
  const desktop = await TestDesktop.start();
  const context = testContext();
  const opts = (title: string) => ({ title, rows: 965, extraArgs: ['--lists', '5'] });
  try {
    const a = await desktop.launchFixture('gtk3', opts('Big A'));
    let t = Date.now();
    const s = await accessibleWindowState(context, a.window);
    console.log('first read', Date.now() - t, s.state.node_count);
    t = Date.now();
    await runTool('get_window_state', { pid: a.window.pid, window_id: a.window.id, fresh: true }, context);
    console.log('fresh read', Date.now() - t);
    for (const delay of [50, 200, 400]) {
      const c = await desktop.launchFixture('gtk3', opts(`Big C${delay}`));
      await new Promise((r) => setTimeout(r, 1500));
      t = Date.now();
      setTimeout(() => c.process.kill('SIGKILL'), delay);
      const r = await runTool('get_window_state', { pid: c.window.pid, window_id: c.window.id }, context);
      console.log('killed after', delay, 'answer in', Date.now() - t, r.ok, r.summary.slice(0, 300), r.structured.error, (r.structured as any).degraded_reason, (r.structured as any).node_count);
      t = Date.now();
      const r2 = await runTool('get_window_state', { pid: a.window.pid, window_id: a.window.id }, context);
      console.log('next', Date.now() - t, r2.ok, r2.summary.slice(0, 200));
    }
    for (const delay of [0, 20, 60, 150]) {
      const c = await desktop.launchFixture('gtk3', { title: `Act ${delay}` });
      const { state } = await accessibleWindowState(context, c.window);
      const inc = state.elements.find((e) => e.name === 'Increment')!;
      t = Date.now();
      setTimeout(() => c.process.kill('SIGKILL'), delay);
      const r = await runTool('click', { window_id: c.window.id, element_index: inc.index }, context);
      console.log('action killed after', delay, 'answer in', Date.now() - t, r.ok, r.summary.slice(0, 300), r.structured.error);
      t = Date.now();
      const r2 = await runTool('get_window_state', { pid: a.window.pid, window_id: a.window.id }, context);
      console.log('next', Date.now() - t, r2.ok, r2.summary.slice(0, 100));
    }
  } finally {
    context.desktop.close();
    await desktop.stop();
  }
});
