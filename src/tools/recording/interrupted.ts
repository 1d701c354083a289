// A recording whose process died (the daemon killed with -9, the machine lost power) cannot finish what it
// was writing. The folder says so itself: a marker written at the start and removed at the stop names the
// process and the video's partial file, so whoever looks at the folder next (a start_recording into it,
// get_recording_state with output_dir) finishes the video when its encoder did, and clears the half-written
// turn folders the dead process left.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AbandonedVideo } from '../../platform/desktop.js';
import type { ToolContext } from '../context.js';
import { writeFileAtomically } from '../files.js';

const MARKER = '.recording.json';
/** How long a dead recorder's ffmpeg may take to finish its file (it was sent SIGINT when its parent died). */
const VIDEO_FINISH_MS = 10_000;
/** A turn folder being written: `.turn-00001.<pid>.<time>.partial` (see writeFolder in turn.ts). */
const PARTIAL_TURN = /^\.turn-\d{5}\.(\d+)\..*\.partial$/;
export const TURN_FOLDER = /^turn-\d{5}$/;

interface Marker {
  pid: number;
  session: string;
  started_at: string;
  video?: { path: string; partial: string };
}

/** What a recording interrupted by its process's death left, once looked at. */
export interface InterruptedRecording {
  pid: number;
  session: string;
  started_at: string;
  turns_written: number;
  /** Half-written turn folders of the dead process, removed. */
  partial_turns_removed: number;
  video?: AbandonedVideo;
}

export function markRecording(dir: string, marker: Marker): void {
  writeFileAtomically(join(dir, MARKER), `${JSON.stringify(marker)}\n`, { mode: 0o600, replace: 'any' });
}

export function unmarkRecording(dir: string): void {
  rmSync(join(dir, MARKER), { force: true });
}

function readMarker(dir: string): Marker | undefined {
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER), 'utf8')) as Partial<Marker>;
    return typeof marker.pid === 'number' && typeof marker.session === 'string' ? (marker as Marker) : undefined;
  } catch {
    return undefined;
  }
}

export function turnFolders(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => TURN_FOLDER.test(name)) : [];
}

/**
 * The recording into `dir` whose process died, finished as far as it can be; undefined when the folder has no
 * marker, or its process still runs (it records there now). Temporary turn folders of dead processes are
 * removed either way: a reader never counts them (they are hidden), and nobody will finish them.
 */
export async function recoverInterrupted(context: ToolContext, dir: string): Promise<InterruptedRecording | undefined> {
  if (!existsSync(dir)) return undefined;
  let removed = 0;
  for (const name of readdirSync(dir)) {
    const writer = PARTIAL_TURN.exec(name)?.[1];
    if (writer !== undefined && Number(writer) !== process.pid && !context.desktop.processAlive(Number(writer))) {
      rmSync(join(dir, name), { recursive: true, force: true });
      removed++;
    }
  }
  const marker = readMarker(dir);
  if (!marker || marker.pid === process.pid || context.desktop.processAlive(marker.pid)) return undefined;
  const video = marker.video ? await context.desktop.finishAbandonedVideo(marker.video.partial, marker.video.path, VIDEO_FINISH_MS) : undefined;
  unmarkRecording(dir);
  return {
    pid: marker.pid,
    session: marker.session,
    started_at: marker.started_at,
    turns_written: turnFolders(dir).length,
    partial_turns_removed: removed,
    ...(video ? { video } : {}),
  };
}

/** One line for a summary: what the dead recording left. */
export function interruptedLine(interrupted: InterruptedRecording): string {
  const video = interrupted.video;
  const said =
    video?.state === 'finalised'
      ? `; its video was finished by ffmpeg and is ${video.path} (${video.durationS.toFixed(1)} s)`
      : video?.state === 'unfinished'
        ? `; its video is unfinished (${video.why}): ${video.path}`
        : video?.state === 'absent'
          ? '; its video was never written'
          : '';
  return `⚠️ the recording session "${interrupted.session}" started at ${interrupted.started_at} was interrupted: its process (pid ${interrupted.pid}) died; ${interrupted.turns_written} whole turn folder(s) kept${interrupted.partial_turns_removed ? `, ${interrupted.partial_turns_removed} half-written one(s) removed` : ''}${said}`;
}
