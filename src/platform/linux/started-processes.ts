// The processes an app started after a moment: a file manager's click that opens a file starts the program that
// shows it, whose window comes later than an action waits for its first sign. Read from /proc (Linux only).
import { readdir, readFile } from 'node:fs/promises';

/** /proc's start times are in clock ticks since boot: USER_HZ, 100 on every architecture Linux runs the driver on. */
const ticksPerSecond = 100;

/** When (Date.now()) the machine booted, to the clock tick, measured once: /proc/stat's btime is whole seconds. */
let bootedAtMs: Promise<number> | undefined;
function bootedAt(): Promise<number> {
  bootedAtMs ??= readFile('/proc/uptime', 'utf8').then((text) => Date.now() - Number(text.split(' ')[0]) * 1000);
  return bootedAtMs;
}

interface ProcessEntry {
  pid: number;
  parent: number;
  name: string;
  startTick: number;
}

async function processEntry(pid: number): Promise<ProcessEntry | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The name is in parentheses and may hold spaces and parentheses itself: the fields follow its last ")".
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    // After the name: state, ppid, ... starttime is the 22nd field of the line, the 20th after the name.
    return { pid, parent: Number(fields[1]), name: stat.slice(stat.indexOf('(') + 1, close), startTick: Number(fields[19]) };
  } catch {
    return undefined; // ended meanwhile
  }
}

/**
 * The processes still running that `pid` or a process it started has started since `sinceMs` (Date.now()), oldest
 * first. A program started through a detached launcher (a double fork) belongs to init, and is not found.
 */
export async function processesStartedBy(pid: number, sinceMs: number): Promise<{ pid: number; name: string }[]> {
  const booted = await bootedAt();
  // A tick of slack each way: the two clocks are read apart.
  const sinceTick = Math.floor(((sinceMs - booted) / 1000) * ticksPerSecond) - 1;
  const entries = (await Promise.all((await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map((name) => processEntry(Number(name))))).filter(
    (entry): entry is ProcessEntry => entry !== undefined,
  );
  const byPid = new Map(entries.map((entry) => [entry.pid, entry]));
  const descends = (entry: ProcessEntry): boolean => {
    for (let parent = byPid.get(entry.parent), steps = 0; parent && steps < 64; parent = byPid.get(parent.parent), steps++) if (parent.pid === pid) return true;
    return entry.parent === pid;
  };
  return entries
    .filter((entry) => entry.startTick >= sinceTick && descends(entry))
    .sort((a, b) => a.startTick - b.startTick)
    .map(({ pid: started, name }) => ({ pid: started, name }));
}
