// The trajectory recordings running on one desktop, by the session that started each: a recording belongs to its
// session, so two agents on one daemon never write into each other's turn folders.
import { setTimeout as delay } from 'node:timers/promises';
import type { Desktop, ScreenRecording, StoppedVideo } from '../../platform/desktop.js';
import type { ToolContext } from '../context.js';
import { unmarkRecording } from './interrupted.js';

export interface Recording {
  session: string;
  outputDir: string;
  startedAt: Date;
  highlightClicks: boolean;
  /** The number the next recorded action gets (turn-00001 first). */
  nextTurn: number;
  turnsWritten: number;
  /**
   * The session's actions under way, each until its turn folder is written: stopping waits for them (bounded), so the
   * folder holds and counts every turn once stop_recording answers, and nothing is written into it afterwards.
   */
  running: Set<Promise<void>>;
  /** Set once stopped and its running actions waited for: an action that ends later writes no turn. */
  closed: boolean;
  /** The screen video, while it records. */
  video?: ScreenRecording;
  /** What the video shows: "screen", "window" (a window's place) or "follow_window" (one window's own pixels). */
  videoRegion?: string;
}

export interface StoppedRecording {
  recording: Recording;
  video?: StoppedVideo;
  videoError?: string;
}

/** How long stopping waits for the session's actions under way to end and write their turns. */
const RUNNING_ACTIONS_WAIT_MS = 10_000;

const byDesktop = new WeakMap<Desktop, Map<string, Recording>>();

function recordingsOf(desktop: Desktop): Map<string, Recording> {
  let recordings = byDesktop.get(desktop);
  if (!recordings) byDesktop.set(desktop, (recordings = new Map()));
  return recordings;
}

/** The recording the call's session runs, if any. */
export function recordingOf(context: ToolContext): Recording | undefined {
  return byDesktop.get(context.desktop)?.get(context.session);
}

/** The session recording into `outputDir`, other than `except`: two recordings in one folder would mix. */
export function recorderOfFolder(desktop: Desktop, outputDir: string, except: string): string | undefined {
  for (const [session, recording] of byDesktop.get(desktop) ?? []) if (session !== except && recording.outputDir === outputDir) return session;
  return undefined;
}

export function addRecording(desktop: Desktop, recording: Recording): void {
  recordingsOf(desktop).set(recording.session, recording);
}

/** Stops the session's recording (and finishes its video); undefined when it ran none. Never throws. */
export async function stopRecording(desktop: Desktop, session: string): Promise<StoppedRecording | undefined> {
  const recordings = byDesktop.get(desktop);
  const recording = recordings?.get(session);
  if (!recording) return undefined;
  recordings!.delete(session);
  await Promise.race([Promise.allSettled(recording.running), delay(RUNNING_ACTIONS_WAIT_MS, undefined, { ref: false })]);
  recording.closed = true;
  try {
    if (!recording.video) return { recording };
    try {
      return { recording, video: await recording.video.stop() };
    } catch (error) {
      return { recording, videoError: (error as Error).message };
    }
  } finally {
    // Stopped by its own process: nothing is left for a later look at the folder to finish.
    unmarkRecording(recording.outputDir);
  }
}

/** Stops every recording of the desktop (the process is closing): each video is finished so that it plays. */
export async function stopAllRecordings(desktop: Desktop): Promise<void> {
  await Promise.all([...(byDesktop.get(desktop)?.keys() ?? [])].map((session) => stopRecording(desktop, session)));
}
