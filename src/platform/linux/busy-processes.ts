// Telling a busy application from a hung one when a call into it runs out of time. An app laying out a huge list or
// loading a document answers nothing for seconds while it works, and the call's timeout took it for hung: a reading
// came back degraded ("it may be hung or stopped") a moment before the app would have answered. The process's CPU
// time tells them apart: a busy app's grows, a hung one's (deadlocked, waiting on something that never comes) does
// not, and a stopped one is marked so in its state. A call into a busy app is given more time, within a bound.
import { statFields } from './desktop/processes.js';

/** How long the CPU time is watched before an app is judged, in ms. */
const LOOK_MS = 200;
/** The least CPU time, in ticks, that counts as work: a tick may be charged for a moment's wake. */
const MIN_TICKS = 2;
/**
 * How much of the time looked at the app must have spent on the CPU to count as busy: a hung app spends none, and a
 * busy one on a loaded machine gets only its share of a core (15% of one, at a load of 8 on two cores).
 */
const BUSY_SHARE = 0.05;
/** How much more time a busy app is given at each judgement, in ms. */
const EXTEND_MS = 1000;
/** A call waits at most this many times its own timeout, busy or not. */
const MAX_TIMEOUTS = 5;
/** A look older than this is no baseline for a new judgement, in ms. */
const LOOK_KEPT_MS = 2 * EXTEND_MS;
/** /proc reports CPU time in USER_HZ ticks, 100 a second on Linux whatever the kernel's own tick rate. */
const MS_PER_TICK = 10;

/** States of /proc/PID/stat in which a process runs nothing: stopped, traced at a stop, a zombie, dead. */
const notRunning = new Set(['T', 't', 'Z', 'X', 'x']);

/** A process's state letter and CPU time (user and system) in ticks; undefined when it is gone. */
function cpuOf(pid: number): { state: string; ticks: number } | undefined {
  const fields = statFields(pid);
  if (!fields) return undefined;
  // After the command name: state is field 0, utime and stime fields 11 and 12.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? { state: fields[0]!, ticks } : undefined;
}

export class BusyProcesses {
  private readonly looks = new Map<number, { at: number; ticks: number }>();

  /**
   * How many ms more a call into process `pid` that has waited `waitedMs` of its `timeoutMs` is given: 0 to give up
   * now. The first answer for an app starts a look at its CPU time (LOOK_MS more); a later one judges it, and a busy app
   * gets EXTEND_MS more, up to MAX_TIMEOUTS times the call's timeout. Calls that run out together share one look.
   */
  patience(pid: number, waitedMs: number, timeoutMs: number, now = performance.now()): number {
    const left = timeoutMs * MAX_TIMEOUTS - waitedMs;
    if (left <= 0) return 0;
    const cpu = cpuOf(pid);
    if (!cpu || notRunning.has(cpu.state)) return 0;
    const look = this.looks.get(pid);
    if (!look || now - look.at > LOOK_KEPT_MS) {
      this.looks.set(pid, { at: now, ticks: cpu.ticks });
      return Math.min(LOOK_MS, left);
    }
    const span = now - look.at;
    // A timer set for the rest of the look may wake a fraction of a ms early (Node counts whole ms): that is the look.
    if (span < LOOK_MS - 1) return Math.min(LOOK_MS - span, left);
    const worked = cpu.ticks - look.ticks;
    if (worked < MIN_TICKS || worked * MS_PER_TICK < span * BUSY_SHARE) return 0;
    this.looks.set(pid, { at: now, ticks: cpu.ticks });
    return Math.min(EXTEND_MS, left);
  }
}
