// Screen video through ffmpeg's x11grab: the whole display, a rectangle of it, or one window's own pixels, encoded
// as H.264 into an MP4 that is written under a temporary name and renamed once ffmpeg has finished it. The MP4 is
// fragmented, a fragment a second written out as it is made, so it plays up to its last whole second however
// ffmpeg ended: a plain MP4 is playable only once its index is written at the end, which an ffmpeg that is
// killed (or dies with its parent under load) never writes.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { AbandonedVideo, ScreenRecording, ScreenRecordingRequest, StoppedVideo, VideoEncoder } from '../desktop.js';
import { commandLine, processIds } from './desktop/processes.js';
import { findProgram } from './desktop/requirements.js';

/** How long ffmpeg may take to grab its first frame before the start counts as failed. */
const START_TIMEOUT_MS = 10_000;
/** After "q", ffmpeg writes the MP4's last fragment and exits; then SIGINT, then SIGKILL. */
const QUIT_TIMEOUT_MS = 8000;
const INTERRUPT_TIMEOUT_MS = 4000;
const PROBE_TIMEOUT_MS = 5000;
/** ffmpeg's own error lines kept for a failure's message. */
const KEPT_ERROR_CHARS = 2000;

/** The Debian command that installs ffmpeg (ffprobe comes with it). */
function installCommand(): string[] {
  const command = ['apt-get', 'install', '-y', '-q', '--no-install-recommends', 'ffmpeg'];
  return process.getuid?.() === 0 ? command : ['sudo', '-n', ...command];
}

export function videoEncoder(): VideoEncoder {
  const path = findProgram('ffmpeg');
  return { ...(path ? { path } : {}), installCommand: installCommand() };
}

/** Runs the install command (apt-get); resolves with its exit status and the end of its output. */
export function installVideoEncoder(timeoutMs: number): Promise<{ status: number | null; output: string; command: string[] }> {
  const command = installCommand();
  if (!findProgram(command[0]!)) {
    return Promise.resolve({ status: null, output: `${command[0]} is not on PATH: this is not a Debian-like system; install ffmpeg with its package manager`, command });
  }
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      output += `\n(stopped after ${timeoutMs} ms)`;
      child.kill('SIGTERM');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ status: null, output: error.message, command });
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output, command });
    });
  });
}

/** The video's length in seconds as ffprobe reads it from the file; undefined when it cannot be read. */
export function probeDuration(path: string): number | undefined {
  const ffprobe = findProgram('ffprobe');
  if (!ffprobe) return undefined;
  const probe = spawnSync(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', path], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  });
  const seconds = Number.parseFloat(probe.stdout ?? '');
  return probe.status === 0 && Number.isFinite(seconds) ? seconds : undefined;
}

function grabArguments(display: string, request: ScreenRecordingRequest): string[] {
  const region = request.region;
  if ('windowId' in region) return ['-window_id', String(region.windowId), '-i', display];
  return ['-video_size', `${region.width}x${region.height}`, '-i', `${display}+${region.x},${region.y}`];
}

type FfmpegProcess = ChildProcessByStdio<Writable, null, Readable>;

/** Where ffmpeg reports its progress while it writes `partial`. */
function progressFile(partial: string): string {
  return `${partial}.progress`;
}

function readTextIfAny(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Starts ffmpeg and resolves once it has grabbed its first frame; rejects with ffmpeg's own words when it cannot. */
export async function startScreenRecording(ffmpeg: string, display: string, request: ScreenRecordingRequest): Promise<ScreenRecording> {
  const partial = join(dirname(request.path), `.${basename(request.path)}.${randomBytes(6).toString('hex')}.partial`);
  // Created here, new (O_EXCL, no link followed) under a name nobody can guess, so ffmpeg's -y writes into a file of
  // ours and never through a link planted at the name.
  closeSync(openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644));
  // Progress goes to a file, not a pipe: once its parent is gone ffmpeg's writes to a pipe fail, and ffmpeg
  // then ends without writing the MP4's index, so a daemon killed while recording would leave no playable video.
  const progress = progressFile(partial);
  rmSync(progress, { force: true });
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostats', '-progress', progress,
    '-f', 'x11grab', '-framerate', String(request.fps), '-draw_mouse', '1',
    ...grabArguments(display, request),
    // H.264 in yuv420p needs even sides: a window of odd width loses its last column.
    '-vf', 'crop=trunc(iw/2)*2:trunc(ih/2)*2',
    // A key frame a second starts a fragment a second, each written to the file as soon as it is whole.
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', String(request.fps),
    '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-flush_packets', '1',
    '-f', 'mp4', '-y', partial,
  ];
  // ffmpeg outlives a parent that is killed (it ignores the closed pipes) and would record on for ever; util-linux's
  // setpriv has the kernel send it SIGINT when its parent dies, and ffmpeg finishes the file on SIGINT.
  const setpriv = findProgram('setpriv');
  const child: FfmpegProcess = setpriv
    ? spawn(setpriv, ['--pdeathsig', 'INT', ffmpeg, ...args], { stdio: ['pipe', 'ignore', 'pipe'] })
    : spawn(ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  // An ffmpeg that already ended (its window closed) cannot take "q": the write fails, and stop() says why.
  child.stdin.on('error', () => undefined);
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-KEPT_ERROR_CHARS);
  });
  // A process that exits without stopping the recording takes ffmpeg with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  // An ffmpeg that ends before it is asked to (the disk filled, the window it follows closed, killed) left a video shorter
  // than the recording: the stop says so rather than "stopped by q".
  let stopAsked = false;
  let endedBeforeStop = false;
  void exited.then(() => {
    endedBeforeStop = !stopAsked;
  });
  const failure = (why: string) => {
    process.off('exit', killOnExit);
    child.kill('SIGKILL');
    rmSync(partial, { force: true });
    rmSync(progress, { force: true });
    return new Error(`ffmpeg ${why}: ${errors.trim() || 'it said nothing'} (command: ffmpeg ${args.join(' ')})`);
  };

  const started = await new Promise<'frame' | 'exited' | 'timeout'>((resolve) => {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let ended = false;
    void exited.then(() => {
      ended = true;
    });
    const poll = () => {
      if (ended) return resolve('exited');
      // -progress writes blocks of key=value lines; a frame count above 0 means grabbing works.
      if (/^frame=[1-9]/m.test(readTextIfAny(progress))) return resolve('frame');
      if (Date.now() > deadline) return resolve('timeout');
      setTimeout(poll, 25);
    };
    poll();
  });
  if (started === 'exited') throw failure('stopped before recording a frame');
  if (started === 'timeout') throw failure(`recorded no frame within ${START_TIMEOUT_MS} ms`);

  let stopping: Promise<StoppedVideo> | undefined;
  const stop = async (): Promise<StoppedVideo> => {
    stopAsked = true;
    const ask = async (how: () => void, ms: number): Promise<boolean> => {
      how();
      return Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
    };
    // "q" on stdin is ffmpeg's own quit key: it finishes the file. SIGINT does the same for an ffmpeg that
    // does not read its input; SIGKILL leaves the fragments written so far.
    let stoppedBy = 'q';
    if (!(await ask(() => child.stdin.end('q'), QUIT_TIMEOUT_MS))) {
      stoppedBy = 'SIGINT';
      if (!(await ask(() => child.kill('SIGINT'), INTERRUPT_TIMEOUT_MS))) {
        stoppedBy = 'SIGKILL';
        await ask(() => child.kill('SIGKILL'), INTERRUPT_TIMEOUT_MS);
      }
    }
    process.off('exit', killOnExit);
    const code = await exited;
    rmSync(progress, { force: true });
    const finished = stoppedBy !== 'SIGKILL' && (code === 0 || code === 255);
    const durationS = probeDuration(partial);
    // An ffmpeg that did not finish (killed, crashed) left the whole fragments it wrote: kept when they play.
    if (!finished && durationS === undefined) {
      rmSync(partial, { force: true });
      throw new Error(`ffmpeg did not finish the video (exit ${code}, stopped by ${stoppedBy}) and what it wrote does not play: ${errors.trim() || 'it said nothing'}`);
    }
    renameSync(partial, request.path);
    // ffmpeg's last words, without its "Last message repeated N times" lines.
    const said = errors.split('\n').map((line) => line.trim()).filter((line) => line && !/^Last message repeated/.test(line)).at(-1);
    const endedEarly = endedBeforeStop ? `ffmpeg ended before the stop (${code === null ? 'killed' : `exit ${code}`}: ${said ?? 'it said nothing'})` : undefined;
    const how = `${endedEarly ?? stoppedBy}${finished ? '' : `; ffmpeg had ended without finishing (exit ${code}), so the video holds what it wrote, to its last whole second`}`;
    return { path: request.path, ...(durationS !== undefined ? { durationS } : {}), stoppedBy: how, ...(endedEarly ? { endedEarly } : {}) };
  };
  return {
    path: request.path,
    partialPath: partial,
    pid: child.pid!,
    stop: () => (stopping ??= stop()),
  };
}

/** ffmpeg processes still writing the file (its path is on their command line). */
function writersOf(path: string): number[] {
  return processIds().filter((pid) => {
    const argv = commandLine(pid);
    return argv.includes(path) && argv.some((arg) => arg.endsWith('ffmpeg'));
  });
}

/**
 * A video left by a recording process that died: its ffmpeg got SIGINT (pdeathsig) and finishes the file on
 * its own, which takes a moment; once no ffmpeg writes it, a file ffprobe reads is finished and put in place.
 * One ffprobe cannot read (ffmpeg was gone before its first whole fragment, the disk filled) is left where it is,
 * named in the answer.
 */
export async function finishAbandonedVideo(partialPath: string, path: string, timeoutMs: number): Promise<AbandonedVideo> {
  for (const deadline = Date.now() + timeoutMs; writersOf(partialPath).length > 0; await sleep(100)) {
    if (Date.now() > deadline) return { state: 'unfinished', path: partialPath, why: `ffmpeg (pid ${writersOf(partialPath).join(', ')}) still writes it after ${timeoutMs} ms` };
  }
  rmSync(progressFile(partialPath), { force: true });
  if (!existsSync(partialPath)) return existsSync(path) && probeDuration(path) !== undefined ? { state: 'finalised', path, durationS: probeDuration(path)! } : { state: 'absent' };
  const durationS = probeDuration(partialPath);
  if (durationS === undefined) return { state: 'unfinished', path: partialPath, why: 'ffprobe cannot read it: ffmpeg ended before writing its first whole fragment' };
  renameSync(partialPath, path);
  return { state: 'finalised', path, durationS };
}
