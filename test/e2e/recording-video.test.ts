// Screen video of a recording, through the CLI and the daemon (ffmpeg lives in the daemon between the calls):
// ffprobe, run by the test, reads the finished MP4 (H.264, its duration, its size); frames taken out of the video
// show the ring a highlighted click draws. Without ffmpeg on PATH the start is refused naming install_ffmpeg.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { commandLine } from '../../src/platform/linux/desktop/processes.js';
import { daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { callCliJson, daemonProcesses, stopDaemon, waitUntil } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';

const execFileAsync = promisify(execFile);

interface Element {
  index: number;
  name: string;
  bounds?: { x: number; y: number; w: number; h: number };
}

/** ffmpeg processes whose command line names the folder. */
function recordersOf(dir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      const argv = commandLine(pid);
      return argv.some((arg) => arg.endsWith('ffmpeg')) && argv.some((arg) => arg.startsWith(dir));
    });
}

describe('recording video', () => {
  let desktop: TestDesktop;
  let oracle: PyatspiOracle;
  let env: NodeJS.ProcessEnv;
  let window: ClientWindow;

  const cli = (tool: string, args: Record<string, unknown>, extra: string[] = [], runEnv = env) => callCliJson(runEnv, tool, args, extra);

  async function probe(path: string): Promise<{ codec: string; width: number; height: number; duration: number }> {
    const { stdout } = await execFileAsync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height:format=duration', '-of', 'json', path], { timeout: 10_000 });
    const parsed = JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number }[]; format: { duration: string } };
    return { codec: parsed.streams[0]!.codec_name, width: parsed.streams[0]!.width, height: parsed.streams[0]!.height, duration: Number(parsed.format.duration) };
  }

  async function increment(): Promise<Element> {
    const state = await cli('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
    assert.equal(state.status, 0, state.stderr);
    const found = (state.json.elements as Element[]).find((element) => element.name === 'Increment');
    assert.ok(found);
    return found;
  }

  before(async () => {
    desktop = await TestDesktop.start();
    oracle = new PyatspiOracle(desktop.env());
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    window = (await desktop.launchFixture('gtk3')).window;
  });

  after(async () => {
    if (env) await stopDaemon(env);
    oracle?.close();
    await desktop?.stop();
  });

  test('the screen is recorded to a playable H.264 MP4 whose frames show the highlighted click', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cup-video-'));
    const started = await cli('start_recording', { output_dir: dir, record_video: true, highlight_clicks: true, video_fps: 10 });
    assert.equal(started.status, 0, started.stderr);
    assert.equal(started.json.video_path, join(dir, 'recording.mp4'));
    assert.ok(!existsSync(join(dir, 'recording.mp4')), 'the MP4 appears only once it is finished');
    const button = await increment();
    const counter = Number((await oracle.status(window.pid, window.title)).counter);
    await sleep(1000);
    const clicked = await cli('click', { window_id: window.id, element_index: button.index });
    assert.equal(clicked.status, 0, clicked.stderr);
    assert.equal(Number((await oracle.status(window.pid, window.title)).counter), counter + 1);
    await sleep(1000);
    const stopped = await cli('stop_recording', {});
    assert.equal(stopped.status, 0, stopped.stderr);
    const video = join(dir, 'recording.mp4');
    assert.equal(stopped.json.last_video_path, video);
    assert.equal(stopped.json.video_stopped_by, 'q', 'ffmpeg finished the file when asked');
    assert.deepEqual(readdirSync(dir).sort(), ['recording.mp4', 'turn-00001'], 'no partial file is left');

    const probed = await probe(video);
    assert.equal(probed.codec, 'h264');
    assert.deepEqual([probed.width, probed.height], [1280, 800], 'the whole screen');
    assert.ok(probed.duration > 2, `ffprobe reads ${probed.duration} s`);
    assert.ok(Math.abs((stopped.json.video_duration_s as number) - probed.duration) < 0.2);

    // Frames a second apart around the click, from the video itself: the ring (yellow) around the button's centre
    // shows in one of them, and not in the first frame.
    const record = JSON.parse(readFileSync(join(dir, 'turn-00001', 'action.json'), 'utf8')) as { time: string; elapsed_ms: number; click_point: { screen_x: number; screen_y: number } };
    const frames = mkdtempSync(join(tmpdir(), 'cup-frames-'));
    await execFileAsync('ffmpeg', ['-v', 'error', '-i', video, '-vf', 'fps=10', join(frames, 'f%03d.png')], { timeout: 30_000 });
    const { screen_x: cx, screen_y: cy } = record.click_point;
    const yellowNear = async (file: string): Promise<number> => {
      const { data, info } = await sharp(join(frames, file)).extract({ left: cx - 24, top: cy - 24, width: 48, height: 48 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let count = 0;
      for (let i = 0; i < info.width * info.height * 3; i += 3) if (data[i]! > 190 && data[i + 1]! > 150 && data[i + 2]! < 110) count++;
      return count;
    };
    const counts = await Promise.all(readdirSync(frames).sort().map(yellowNear));
    assert.equal(counts[0], 0, 'no ring before the click');
    assert.ok(Math.max(...counts) > 40, `a ring in the frames around the click (yellow pixels per frame: ${counts.join(' ')})`);
  });

  test('follow_window records the window\'s own pixels at its size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cup-video-'));
    const started = await cli('start_recording', { output_dir: dir, record_video: true, video_region: 'follow_window', window_id: window.id, video_fps: 10 });
    assert.equal(started.status, 0, started.stderr);
    await sleep(1500);
    const stopped = await cli('stop_recording', {});
    assert.equal(stopped.status, 0, stopped.stderr);
    const probed = await probe(stopped.json.last_video_path as string);
    assert.deepEqual([probed.width, probed.height], [window.bounds.width & ~1, window.bounds.height & ~1]);
    assert.ok(probed.duration > 1, `ffprobe reads ${probed.duration} s`);
    const missingWindow = await cli('start_recording', { output_dir: mkdtempSync(join(tmpdir(), 'cup-video-')), record_video: true, video_region: 'window' });
    assert.equal(missingWindow.json.error, 'missing_window_id');
  });

  test('a followed window that closes ends the video early, and stop_recording says the video is shorter and why', async () => {
    const other = await desktop.launchFixture('gtk3', { title: 'Followed Away' });
    const dir = mkdtempSync(join(tmpdir(), 'cup-video-'));
    const started = await cli('start_recording', { output_dir: dir, record_video: true, video_region: 'follow_window', window_id: other.window.id, video_fps: 10 });
    assert.equal(started.status, 0, started.stderr);
    const startedAt = Date.now();
    await sleep(1500);
    other.process.kill('SIGKILL');
    await waitUntil('ffmpeg ends with the window it follows', 10_000, () => recordersOf(dir).length === 0);
    await sleep(2000);
    const stopped = await cli('stop_recording', {});
    const recordedS = (Date.now() - startedAt) / 1000;
    assert.equal(stopped.status, 0, stopped.stderr);
    assert.match(String(stopped.json.video_ended_early), /^ffmpeg ended before the stop \(exit \d+: .+\)$/);
    const probed = await probe(join(dir, 'recording.mp4'));
    assert.ok(probed.duration < recordedS - 1.5, `ffprobe reads ${probed.duration} s of a ${recordedS.toFixed(1)} s recording: the video is shorter`);
  });

  test('an output_dir that exists but cannot be written into is refused, and the session does not record', async () => {
    // /proc/1 is a folder in which no file can be made, even by root.
    for (const video of [false, true]) {
      const refused = await cli('start_recording', { output_dir: '/proc/1', ...(video ? { record_video: true } : {}) });
      assert.equal(refused.status, 1);
      assert.equal(refused.json.error, 'invalid_arguments');
      assert.match(String(refused.json.message), /^output_dir \/proc\/1 cannot be written into \(.*ENOENT.*\); give a folder this process may write$/);
      const state = await cli('get_recording_state', {});
      assert.equal(state.json.recording, false, 'the refused start left no recording behind');
      assert.deepEqual(recordersOf('/proc/1'), [], 'and no ffmpeg');
    }
    // A refused start leaves the session's running recording (and its ffmpeg) alone; one that starts stops it.
    const [running, used, next] = [mkdtempSync(join(tmpdir(), 'cup-video-')), mkdtempSync(join(tmpdir(), 'cup-video-')), mkdtempSync(join(tmpdir(), 'cup-video-'))];
    writeFileSync(join(used, 'recording.mp4'), '');
    assert.equal((await cli('start_recording', { output_dir: running, record_video: true, video_fps: 10 })).status, 0);
    for (const [dir, error] of [['/proc/1', 'invalid_arguments'], [used, 'output_dir_in_use']] as const) {
      const refused = await cli('start_recording', { output_dir: dir });
      assert.equal(refused.json.error, error, dir);
      const state = await cli('get_recording_state', {});
      assert.deepEqual([state.json.recording, state.json.output_dir], [true, running], `after the refused ${dir}, the session still records`);
      assert.equal(recordersOf(running).length, 1, `after the refused ${dir}, its ffmpeg still records`);
    }
    const restarted = await cli('start_recording', { output_dir: next });
    assert.deepEqual([restarted.status, restarted.json.restarted], [0, true]);
    assert.deepEqual(recordersOf(running), [], 'the start that succeeded stopped the running recording');
    assert.ok(existsSync(join(running, 'recording.mp4')), 'and finished its video');
    assert.equal((await cli('stop_recording', {})).status, 0);
  });

  test('a daemon killed while it records takes its ffmpeg with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cup-video-'));
    const started = await cli('start_recording', { output_dir: dir, record_video: true, video_fps: 10 });
    assert.equal(started.status, 0, started.stderr);
    const recorders = () => recordersOf(dir);
    assert.equal(recorders().length, 1, 'one ffmpeg records into the folder');
    for (const pid of daemonProcesses(daemonSocketPath(env))) process.kill(pid, 'SIGKILL');
    await waitUntil('the ffmpeg of the killed daemon is gone', 10_000, () => recorders().length === 0);
  });

  test('an ffmpeg killed mid-recording leaves a video that plays to its last whole second, and stop_recording says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cup-video-'));
    const started = await cli('start_recording', { output_dir: dir, record_video: true, video_fps: 10 });
    assert.equal(started.status, 0, started.stderr);
    await sleep(2500);
    const [recorder] = recordersOf(dir);
    assert.ok(recorder, 'an ffmpeg records into the folder');
    // What an OOM kill or a crash does: no "q", no signal it can answer, no index written at the end.
    process.kill(recorder, 'SIGKILL');
    await waitUntil('the killed ffmpeg is gone', 10_000, () => recordersOf(dir).length === 0);
    const stopped = await cli('stop_recording', {});
    assert.equal(stopped.status, 0, stopped.stderr);
    assert.match(String(stopped.json.video_stopped_by), /ffmpeg had ended without finishing/);
    const video = join(dir, 'recording.mp4');
    assert.equal(stopped.json.last_video_path, video);
    const probed = await probe(video);
    assert.equal(probed.codec, 'h264');
    assert.ok(probed.duration >= 1, `ffprobe reads ${probed.duration} s`);
  });

  test('without ffmpeg, record_video is refused naming install_ffmpeg, which shows its command and runs only when confirmed', async () => {
    const noFfmpeg = desktop.env({ XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, PATH: '/nonexistent' });
    const refused = await cli('start_recording', { output_dir: mkdtempSync(join(tmpdir(), 'cup-video-')), record_video: true }, ['--no-daemon'], noFfmpeg);
    assert.equal(refused.status, 1);
    assert.equal(refused.json.error, 'ffmpeg_missing');
    assert.match(String(refused.json.message), /install_ffmpeg/);
    const preview = await cli('install_ffmpeg', {}, ['--no-daemon'], noFfmpeg);
    assert.equal(preview.status, 0, preview.stderr);
    assert.equal(preview.json.ran, false);
    assert.deepEqual((preview.json.command as string[]).slice(-2), ['--no-install-recommends', 'ffmpeg']);
    const present = await cli('install_ffmpeg', { confirm: true });
    assert.deepEqual([present.json.installed, present.json.ran], [true, false], 'ffmpeg is on PATH here: nothing is run');
  });
});
