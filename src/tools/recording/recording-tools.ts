import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors.js';
import type { ScreenRecordingRequest } from '../../platform/desktop.js';
import type { ToolContext } from '../context.js';
import { makeFolder, resolveUserPath } from '../files.js';
import { windowOfCall } from '../perception/window-records.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { interruptedLine, markRecording, recoverInterrupted, TURN_FOLDER, turnFolders, unmarkRecording, type InterruptedRecording } from './interrupted.js';
import { addRecording, recorderOfFolder, recordingOf, stopRecording, type Recording, type StoppedRecording } from './recordings.js';

const VIDEO_FILE = 'recording.mp4';

const recordingState = z.object({
  recording: z.boolean(),
  session: z.string(),
  output_dir: z.string().optional(),
  /** The number the next recorded action gets (1-based; restarts at 1 with every start_recording). */
  next_turn: z.number(),
  turns_written: z.number(),
  record_video: z.boolean(),
  video_path: z.string().optional(),
  video_region: z.string().optional(),
  highlight_clicks: z.boolean(),
  started_at: z.string().optional(),
});

function stateOf(context: ToolContext, recording: Recording | undefined): z.infer<typeof recordingState> {
  if (!recording) return { recording: false, session: context.session, next_turn: 1, turns_written: 0, record_video: false, highlight_clicks: false };
  return {
    recording: true,
    session: recording.session,
    output_dir: recording.outputDir,
    next_turn: recording.nextTurn,
    turns_written: recording.turnsWritten,
    record_video: recording.video !== undefined,
    ...(recording.video ? { video_path: recording.video.path, video_region: recording.videoRegion } : {}),
    highlight_clicks: recording.highlightClicks,
    started_at: recording.startedAt.toISOString(),
  };
}

const interruptedRecording = z.object({
  pid: z.number(),
  session: z.string(),
  started_at: z.string(),
  turns_written: z.number(),
  partial_turns_removed: z.number(),
  video: z
    .object({ state: z.enum(['finalised', 'unfinished', 'absent']), path: z.string().optional(), duration_s: z.number().optional(), why: z.string().optional() })
    .optional(),
});

/** The structured form of what a dead recording left (snake_case, as every result field). */
function interruptedFields(interrupted: InterruptedRecording): z.infer<typeof interruptedRecording> {
  const { video, ...rest } = interrupted;
  if (!video) return rest;
  if (video.state === 'finalised') return { ...rest, video: { state: video.state, path: video.path, duration_s: video.durationS } };
  return { ...rest, video: video.state === 'unfinished' ? { state: video.state, path: video.path, why: video.why } : { state: video.state } };
}

/** What an earlier recording left in the folder: its turn folders and its video. */
function earlierRecording(dir: string): string[] {
  return readdirSync(dir).filter((name) => TURN_FOLDER.test(name) || name === VIDEO_FILE);
}

async function videoRegion(context: ToolContext, region: 'screen' | 'window' | 'follow_window', args: { pid?: number; window_id?: number }): Promise<ScreenRecordingRequest['region']> {
  const screen = await context.desktop.screen();
  if (region === 'screen') return { x: 0, y: 0, width: screen.width, height: screen.height };
  if (args.window_id === undefined && args.pid === undefined) {
    throw new ToolError(`video_region "${region}" needs the window: give window_id (or pid for its front-most window)`, 'missing_window_id');
  }
  const window = await windowOfCall(context, args, 'start_recording', 'front-most');
  if (region === 'follow_window') return { windowId: window.id };
  const left = Math.max(0, window.bounds.x);
  const top = Math.max(0, window.bounds.y);
  const width = Math.min(screen.width, window.bounds.x + window.bounds.width) - left;
  const height = Math.min(screen.height, window.bounds.y + window.bounds.height) - top;
  if (width < 2 || height < 2) throw new ToolError(`window ${window.id} is not on the screen, so its place cannot be recorded; use video_region "follow_window"`, 'outside_window');
  return { x: left, y: top, width, height };
}

function stoppedLine(stopped: StoppedRecording): string {
  const { recording, video } = stopped;
  const turns = `${recording.turnsWritten} turn${recording.turnsWritten === 1 ? '' : 's'} in ${recording.outputDir}`;
  return video ? `${turns}; video ${video.path}${video.durationS !== undefined ? ` (${video.durationS.toFixed(1)} s)` : ''}` : turns;
}

export const startRecording = defineTool({
  name: 'start_recording',
  capability: 'recording',
  title: 'Start recording a trajectory',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  description:
    'Record this session\'s actions: every action call (click, type_text, press_key, set_value, scroll, drag, ...; a run_actions plan ' +
    'step by step) then writes a turn folder turn-00001/, turn-00002/, ... under output_dir, written whole or not at all: action.json ' +
    '(the tool, its arguments as given, the result, pid, window, click point, the element\'s role, name and ancestry, ISO-8601 time), ' +
    'app_state.json (the target window\'s CUP envelope after the action), screenshot.png (the window after the action) and, for clicks, ' +
    'click.png (the screenshot with the point marked). Numbering restarts at 1 with every start; a running recording of this session is ' +
    'stopped once the new one starts (a refused start leaves it running). Other sessions\' actions are not recorded here. record_video also captures the display to <output_dir>/recording.mp4 ' +
    '(H.264, through ffmpeg\'s x11grab; install_ffmpeg installs ffmpeg): video_region "window" records the window\'s place on the screen ' +
    '(as it was at the start, with everything drawn over it), "follow_window" the window\'s own pixels wherever it moves (without overlays ' +
    'such as the agent cursor); highlight_clicks flashes a ring at each click for the video.',
  input: z.strictObject({
    output_dir: z.string().min(1).describe('Folder for the turn folders and the video (~ and relative paths allowed); created when missing.'),
    record_video: z.boolean().optional().describe('Also capture the screen to <output_dir>/recording.mp4 (needs ffmpeg). Default false.'),
    video_region: z.enum(['screen', 'window', 'follow_window']).optional().describe('screen (default), window (its place on the screen) or follow_window (its own pixels, wherever it moves).'),
    window_id: windowIdArgument.optional().describe('The window video_region "window" or "follow_window" records.'),
    pid: pidArgument.optional().describe('Instead of window_id: that process\'s front-most window.'),
    video_fps: z.number().int().min(1).max(60).optional().describe('Frames a second of the video. Default 30.'),
    highlight_clicks: z.boolean().optional().describe('Flash a ring at every click, visible in the video. Default false.'),
    overwrite: z.boolean().optional().describe('Delete turn folders and the video an earlier recording left in output_dir (else that is refused). Default false.'),
  }),
  output: recordingState.extend({ restarted: z.boolean(), interrupted_recording: interruptedRecording.optional() }),
  async handle(args, context) {
    const dir = resolveUserPath(args.output_dir, context.cwd);
    try {
      makeFolder(dir);
    } catch (error) {
      throw new ToolError(`output_dir ${dir} cannot be created: ${(error as Error).message}`, 'invalid_arguments');
    }
    const other = recorderOfFolder(context.desktop, dir, context.session);
    if (other) throw new ToolError(`session "${other}" is recording into ${dir}; give this session a folder of its own`, 'output_dir_in_use', { session: other });
    // A start that is refused leaves the session's running recording alone: it is stopped once the new one has
    // started, or first when the new one goes into its folder (whose video appears there only once stopped).
    const previous = recordingOf(context);
    let stoppedFirst = previous?.outputDir === dir ? await stopRecording(context.desktop, context.session) : undefined;
    // A recording into this folder whose process died is finished first, and said (the video may be unfinished).
    const interrupted = await recoverInterrupted(context, dir);
    const left = earlierRecording(dir);
    if (left.length > 0 && !args.overwrite) {
      throw new ToolError(
        `${dir} already holds an earlier recording (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', ...' : ''}); choose a new folder, or pass overwrite: true to delete it${interrupted ? `\n${interruptedLine(interrupted)}` : ''}`,
        'output_dir_in_use',
        interrupted ? { interrupted_recording: interruptedFields(interrupted) } : {},
      );
    }
    const recording: Recording = { session: context.session, outputDir: dir, startedAt: new Date(), highlightClicks: args.highlight_clicks ?? false, nextTurn: 1, turnsWritten: 0, running: new Set(), closed: false };
    const marker = { pid: process.pid, session: context.session, started_at: recording.startedAt.toISOString() };
    // The marker is the folder's first write: a folder this process cannot write into is refused before anything
    // starts (an existing folder on a read-only file system was taken, and every turn then failed to be written).
    try {
      markRecording(dir, marker);
    } catch (error) {
      throw new ToolError(`output_dir ${dir} cannot be written into (${(error as Error).message}); give a folder this process may write`, 'invalid_arguments');
    }
    for (const name of left) rmSync(join(dir, name), { recursive: true, force: true });
    try {
      if (args.record_video) {
        const encoder = context.desktop.videoEncoder();
        if (!encoder.path) {
          throw new ToolError(
            `record_video needs ffmpeg, which is not installed (not on PATH); call install_ffmpeg (it shows the command \`${encoder.installCommand.join(' ')}\`, and runs it with confirm: true), or start without record_video`,
            'ffmpeg_missing',
          );
        }
        const region = args.video_region ?? 'screen';
        const request = { path: join(dir, VIDEO_FILE), region: await videoRegion(context, region, args), fps: args.video_fps ?? 30 };
        recording.video = await context.desktop.startScreenRecording(request).catch((error: Error) => {
          throw new ToolError(error.message, 'recording_failed');
        });
        recording.videoRegion = region;
        // The marker names the video's partial file, so that a later look finishes it should this process die.
        markRecording(dir, { ...marker, video: { path: recording.video.path, partial: recording.video.partialPath } });
      }
    } catch (error) {
      // Nothing of a start that failed is left behind: no ffmpeg, no video, no marker.
      const video = recording.video;
      if (video) await video.stop().then(() => rmSync(video.path, { force: true }), () => rmSync(video.partialPath, { force: true }));
      unmarkRecording(dir);
      throw error;
    }
    if (previous && !stoppedFirst) stoppedFirst = await stopRecording(context.desktop, context.session);
    addRecording(context.desktop, recording);
    // The recording belongs to the session: ending it (end_session, the idle limit) stops the recording too.
    context.state.resources.hold('recording', `its recording into ${dir}, stopped`, () => stopRecording(context.desktop, context.session).then(() => undefined));
    const state = stateOf(context, recording);
    const video = recording.video ? `; video to ${recording.video.path} (${recording.videoRegion})` : '';
    return {
      summary: [
        `✅ recording session "${context.session}" into ${dir}${video}${stoppedFirst ? ` (the previous recording stopped: ${stoppedLine(stoppedFirst)})` : ''}`,
        ...(interrupted ? [interruptedLine(interrupted)] : []),
      ].join('\n'),
      structured: { ...state, restarted: stoppedFirst !== undefined, ...(interrupted ? { interrupted_recording: interruptedFields(interrupted) } : {}) },
    };
  },
});

export const stopRecordingTool = defineTool({
  name: 'stop_recording',
  capability: 'recording',
  title: 'Stop recording',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Stop this session\'s recording. A video is ended the way ffmpeg finishes a file ("q", then SIGINT, then SIGKILL after timeouts), so the ' +
    'MP4 plays; last_video_path names it and video_duration_s is its length as ffprobe reads it. A session that is not recording gets a no-op.',
  input: z.strictObject({}),
  output: z.object({
    stopped: z.boolean(),
    session: z.string(),
    output_dir: z.string().optional(),
    turns_written: z.number(),
    last_video_path: z.string().optional(),
    video_duration_s: z.number().optional(),
    video_stopped_by: z.string().optional(),
    /** ffmpeg ended by itself before the stop: the video is shorter than the recording (why, in its words). */
    video_ended_early: z.string().optional(),
  }),
  async handle(_args, context) {
    const stopped = await stopRecording(context.desktop, context.session);
    context.state.resources.release('recording');
    if (!stopped) return { summary: `✅ session "${context.session}" was not recording; nothing to stop`, structured: { stopped: false, session: context.session, turns_written: 0 } };
    const { recording, video, videoError } = stopped;
    if (videoError) {
      throw new ToolError(`the recording stopped (${recording.turnsWritten} turns in ${recording.outputDir}), but the video is lost: ${videoError}`, 'recording_failed', {
        output_dir: recording.outputDir,
        turns_written: recording.turnsWritten,
      });
    }
    return {
      summary: video?.endedEarly
        ? `⚠️ recording stopped: ${stoppedLine(stopped)}; the video is shorter than the recording: ${video.endedEarly}`
        : `✅ recording stopped: ${stoppedLine(stopped)}`,
      structured: {
        stopped: true,
        session: context.session,
        output_dir: recording.outputDir,
        turns_written: recording.turnsWritten,
        ...(video ? { last_video_path: video.path, video_stopped_by: video.stoppedBy, ...(video.endedEarly ? { video_ended_early: video.endedEarly } : {}), ...(video.durationS !== undefined ? { video_duration_s: video.durationS } : {}) } : {}),
      },
    };
  },
});

export const getRecordingState = defineTool({
  name: 'get_recording_state',
  capability: 'recording',
  title: 'Recording state',
  // Not read-only: with output_dir it finishes what a dead recording left there (see below).
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Whether this session records, into which folder, the number the next turn folder gets (1-based), how many were written, and the video. ' +
    'With output_dir: whether a recording into that folder was interrupted because its process died (the daemon killed): its whole turn folders ' +
    'are kept, half-written ones removed, and its video put in place as recording.mp4 when ffmpeg finished it, else reported as unfinished.',
  input: z.strictObject({
    output_dir: z.string().min(1).optional().describe('A recording folder to look at (relative to the caller\'s directory; ~ allowed).'),
  }),
  output: recordingState.extend({
    folder: z.object({ output_dir: z.string(), turns: z.number(), interrupted_recording: interruptedRecording.optional() }).optional(),
  }),
  async handle(args, context) {
    const state = stateOf(context, recordingOf(context));
    const lines = [
      state.recording
        ? `✅ session "${state.session}" records into ${state.output_dir}: next turn ${state.next_turn}, ${state.turns_written} written${state.video_path ? `; video ${state.video_path}` : ''}`
        : `✅ session "${state.session}" is not recording`,
    ];
    if (args.output_dir === undefined) return { summary: lines[0]!, structured: state };
    const dir = resolveUserPath(args.output_dir, context.cwd);
    // A file, FIFO or device under that name holds no recording (and reading it as a folder fails with ENOTDIR).
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ToolError(`output_dir: ${dir} is not a folder; give the folder a recording was written into`, 'invalid_arguments');
    const interrupted = await recoverInterrupted(context, dir);
    const turns = turnFolders(dir).length;
    lines.push(`${dir}: ${turns} turn folder(s)`, ...(interrupted ? [interruptedLine(interrupted)] : []));
    return { summary: lines.join('\n'), structured: { ...state, folder: { output_dir: dir, turns, ...(interrupted ? { interrupted_recording: interruptedFields(interrupted) } : {}) } } };
  },
});

export const installFfmpeg = defineTool({
  name: 'install_ffmpeg',
  capability: 'recording',
  title: 'Install ffmpeg',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  description:
    'Install ffmpeg, which record_video needs. Without confirm it only says the command it would run (apt-get on Debian; through sudo -n ' +
    'when not root); with confirm: true it runs it (up to 10 minutes). Nothing to do when ffmpeg is already on PATH.',
  input: z.strictObject({ confirm: z.boolean().optional().describe('true runs the install; otherwise only the command is shown.') }),
  output: z.object({ installed: z.boolean(), path: z.string().optional(), command: z.array(z.string()), ran: z.boolean() }),
  async handle(args, context) {
    const encoder = context.desktop.videoEncoder();
    const command = encoder.installCommand;
    if (encoder.path) return { summary: `✅ ffmpeg is already installed (${encoder.path}); nothing to do`, structured: { installed: true, path: encoder.path, command, ran: false } };
    if (!args.confirm) {
      return { summary: `ℹ️ ffmpeg is not installed; install_ffmpeg with confirm: true would run: ${command.join(' ')}`, structured: { installed: false, command, ran: false } };
    }
    const run = await context.desktop.installVideoEncoder(600_000);
    const after = context.desktop.videoEncoder();
    if (run.status !== 0 || !after.path) {
      throw new ToolError(`\`${run.command.join(' ')}\` ${run.status === null ? 'could not run' : `exited ${run.status}`}${after.path ? '' : ' and ffmpeg is still not on PATH'}: ${run.output.trim().split('\n').slice(-8).join('\n')}`, 'install_failed', { command: run.command });
    }
    return { summary: `✅ ffmpeg installed (${after.path}) by ${run.command.join(' ')}`, structured: { installed: true, path: after.path, command: run.command, ran: true } };
  },
});

