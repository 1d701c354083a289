// Ending everything a terminal program started. The pseudo-terminal makes the program a session leader,
// and shells put each job in its own process group inside that session, so the session id (not one
// process group) is what ties all of them together.
import { processIds, statFields, waitGone } from '../platform/linux/desktop/processes.js';

export interface SessionMember {
  pid: number;
  pgid: number;
}

/** Live (non-zombie) processes in the session led by `sid`, plus any still in its process group. */
export function sessionMembers(sid: number): SessionMember[] {
  const members: SessionMember[] = [];
  for (const pid of processIds()) {
    const fields = statFields(pid);
    if (!fields || fields[0] === 'Z' || fields[0] === 'X') continue;
    const pgid = Number(fields[2]);
    if (Number(fields[3]) === sid || pgid === sid) members.push({ pid, pgid });
  }
  return members;
}

/**
 * The session's members, and its leader even before it has become one: between the fork and its setsid the
 * new program still belongs to its parent's session, so a stop right after a start would find nobody.
 */
function membersWithLeader(sid: number): SessionMember[] {
  const members = sessionMembers(sid);
  if (!members.some((member) => member.pid === sid)) {
    const state = statFields(sid)?.[0];
    if (state !== undefined && state !== 'Z' && state !== 'X') members.push({ pid: sid, pgid: sid });
  }
  return members;
}

function signalAll(members: readonly SessionMember[], signal: NodeJS.Signals): void {
  const groups = new Set(members.map((member) => member.pgid));
  for (const group of groups) {
    try {
      process.kill(-group, signal);
    } catch {
      // The group is already gone.
    }
  }
  for (const member of members) {
    try {
      process.kill(member.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Hang-up first (what closing a real terminal sends, and what interactive shells honour while ignoring
 * SIGTERM), then SIGTERM, then SIGKILL for whatever is left after the grace period. Returns the pids that
 * were still alive at the end (normally none).
 */
export async function endSession(sid: number, graceMs = 400): Promise<number[]> {
  let members = membersWithLeader(sid);
  if (members.length === 0) return [];
  signalAll(members, 'SIGHUP');
  signalAll(members, 'SIGCONT');
  signalAll(members, 'SIGTERM');
  let alive = await waitGone(members.map((member) => member.pid), graceMs);
  // Members may have forked while dying; look again before the final signal.
  members = membersWithLeader(sid);
  if (alive.length > 0 || members.length > 0) {
    signalAll(members, 'SIGKILL');
    alive = await waitGone(members.map((member) => member.pid), 2000);
  }
  return alive;
}

/** Synchronous last resort for process exit, when no await is possible. */
export function killSessionNow(sid: number): void {
  signalAll(membersWithLeader(sid), 'SIGKILL');
}
