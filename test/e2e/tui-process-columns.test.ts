// A process table under a header of column names (top's, htop's) is read as columns: each row has one cell per
// name, so an agent takes a process's user, state or command by its column rather than parsing the row. The oracle
// is ps, asked about the same processes.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { after, test } from 'node:test';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();
const sleepers = ['86421', '86422', '86423'].map((seconds) => spawn('sleep', [seconds], { stdio: 'ignore' }));
after(() => sleepers.forEach((child) => child.kill()));
const pids = sleepers.map((child) => String(child.pid));

function ps(pid: string, field: string): string {
  return execFileSync('ps', ['-o', `${field}=`, '-p', pid], { encoding: 'utf8', timeout: 10_000 }).trim();
}

/** The value each process row shows under the column named by `column`, by the row's PID cell. */
function column(all: UINode[], names: RegExp, column: RegExp): Map<string, string> {
  const list = all.find((node) => node.role === 'list' && node.children?.[0]?.role === 'header' && names.test(node.children[0].name));
  assert.ok(list, 'a list under a header of column names');
  const [header, ...rows] = list.children!;
  const headers = (header!.children ?? []).map((cell) => cell.name);
  const pidAt = headers.findIndex((name) => /^PID/.test(name));
  const at = headers.findIndex((name) => column.test(name));
  assert.ok(pidAt >= 0 && at >= 0, `columns: ${headers.join(' | ')}`);
  return new Map(rows.map((row) => [row.children![pidAt]!.name, row.children![at]!.name]));
}

for (const program of ['top', 'htop'] as const) {
  test(`${program}: each process row's cells stand under the column names: user, state and command as ps reports them`, async () => {
    const session = program;
    const args = program === 'top' ? ['-d', '5', '-p', pids.join(',')] : ['-p', pids.join(',')];
    await start({ command: program, args, env: { HTOPRC: '/dev/null' }, cols: 120, rows: 30, session });
    await callOk(context, 'tui_wait_for', { text: pids[2]!, all: [{ stableMs: 200 }], session });
    const all = nodes(await callOk(context, 'tui_snapshot', { session }));
    const users = column(all, /PID.*USER/, /^USER$/);
    const states = column(all, /PID.*USER/, /^S$/);
    const commands = column(all, /PID.*USER/, /^(COMMAND|Command)$/);
    assert.deepEqual([...users.keys()].sort(), [...pids].sort(), 'one row per process, by its PID cell');
    for (const pid of pids) {
      assert.equal(users.get(pid), ps(pid, 'user'), `user of ${pid}`);
      assert.equal(states.get(pid), ps(pid, 'stat').slice(0, 1), `state of ${pid}`);
      // top shows the command's name, htop its command line.
      assert.equal(commands.get(pid), ps(pid, program === 'top' ? 'comm' : 'args'), `command of ${pid}`);
    }
    await callOk(context, 'tui_stop', { session });
  });
}
