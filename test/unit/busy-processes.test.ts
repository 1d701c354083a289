// BusyProcesses against real processes: one spinning on the CPU, one asleep, one stopped, judged by their /proc times.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { BusyProcesses } from '../../src/platform/linux/busy-processes.js';

describe('telling a busy process from a hung one by its CPU time', () => {
  const children: ChildProcess[] = [];
  const start = (script: string) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    children.push(child);
    return child.pid!;
  };
  after(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  /** Asks as the connection's sweeper does: at the timeout, then whenever the time given runs out. */
  async function judge(pid: number): Promise<number[]> {
    const busy = new BusyProcesses();
    const answers: number[] = [];
    let waited = 2000;
    for (let more = busy.patience(pid, waited, 2000); more > 0 && answers.length < 4; more = busy.patience(pid, waited, 2000)) {
      answers.push(more);
      await sleep(more);
      waited += more;
    }
    return answers;
  }

  test('a process at work on the CPU is given more time, a second at a time after a first look', async () => {
    const pid = start('for (;;) {}');
    await sleep(300);
    const answers = await judge(pid);
    assert.equal(answers[0], 200, `a first look: ${answers}`);
    assert.ok(answers.slice(1).length >= 1 && answers.slice(1).every((more) => more === 1000), `then a second each: ${answers}`);
  });

  test('an idle process is given up after the look, and a stopped one at once', async () => {
    const idle = start('setTimeout(() => {}, 60_000)');
    // Past node's own start-up work.
    await sleep(1500);
    assert.deepEqual(await judge(idle), [200], 'the look, then no more');
    const stopped = start('for (;;) {}');
    await sleep(100);
    process.kill(stopped, 'SIGSTOP');
    // The kernel stops a process when it next runs: on a loaded machine its state may still read running a while after.
    const state = () => /\) (\S)/.exec(readFileSync(`/proc/${stopped}/stat`, 'utf8'))?.[1];
    for (const deadline = Date.now() + 5000; state() !== 'T' && Date.now() < deadline; ) await sleep(10);
    assert.equal(state(), 'T', 'the kernel has stopped it');
    assert.deepEqual(await judge(stopped), []);
  });

  test('a call waits five times its timeout at most', () => {
    assert.equal(new BusyProcesses().patience(process.pid, 10_000, 2000), 0);
  });
});
