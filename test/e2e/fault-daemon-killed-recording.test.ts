// Issue 13, faults: the daemon killed with -9 while it records. The next CLI call starts a new daemon; the
// trajectory folder holds whole turn folders only (each one's files all there and parseable, judged on disk),
// the half-written ones the dead daemon left are cleared by the next look at the folder, and the video ffmpeg
// wrote (it gets SIGINT by pdeathsig and finishes; should it die first, its whole one-second fragments still play)
// is put in place and plays (ffprobe, run by the test).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { callCliJson, daemonProcesses, stopDaemon, waitUntil } from '../daemon/helpers.js';
import { cliPath, TestDesktop } from '../helpers/desktop.js';

const execFileAsync = promisify(execFile);

/** Every turn folder is whole: action.json parses and every file it lists is there and not empty. */
function assertWholeTurns(dir: string): string[] {
  const turns = readdirSync(dir).filter((name) => /^turn-\d{5}$/.test(name)).sort();
  for (const turn of turns) {
    const record = JSON.parse(readFileSync(join(dir, turn, 'action.json'), 'utf8')) as { files: string[]; turn: number };
    assert.equal(`turn-${String(record.turn).padStart(5, '0')}`, turn);
    assert.deepEqual(readdirSync(join(dir, turn)).sort(), [...record.files].sort(), `${turn} holds exactly the files its action.json lists`);
    JSON.parse(readFileSync(join(dir, turn, 'app_state.json'), 'utf8'));
    assert.ok(readFileSync(join(dir, turn, 'screenshot.png')).subarray(1, 4).toString() === 'PNG', `${turn}/screenshot.png is a PNG`);
  }
  return turns;
}

describe('the daemon killed with -9 while it records', () => {
  let desktop: TestDesktop;
  let env: NodeJS.ProcessEnv;
  let window: ClientWindow;
  const cli = (tool: string, args: Record<string, unknown>) => callCliJson(env, tool, args);
  const killDaemon = () => {
    const pids = daemonProcesses(daemonSocketPath(env));
    assert.equal(pids.length, 1, 'one daemon runs');
    process.kill(pids[0]!, 'SIGKILL');
    return pids[0]!;
  };

  before(async () => {
    desktop = await TestDesktop.start();
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    window = (await desktop.launchFixture('gtk3', { title: 'Recorded' })).window;
  });

  after(async () => {
    if (env) await stopDaemon(env);
    await desktop?.stop();
  });

  test('a new daemon answers the next call; the turn folders are whole and the video ffmpeg finished is put in place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cup-fault-rec-'));
    const started = await cli('start_recording', { output_dir: dir, record_video: true, video_fps: 10 });
    assert.equal(started.status, 0, started.stderr);
    const state = await cli('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
    const button = (state.json.elements as { index: number; name: string }[]).find((element) => element.name === 'Increment')!;
    for (let i = 0; i < 2; i++) assert.equal((await cli('click', { window_id: window.id, element_index: button.index })).status, 0);
    // Over two whole seconds of video before the kill, so more than one second plays even if ffmpeg dies with the
    // daemon instead of finishing (it keeps whole fragments only).
    await sleep(2500);
    const killed = killDaemon();

    const next = await cli('get_recording_state', { output_dir: dir });
    assert.equal(next.status, 0, next.stderr);
    const daemons = daemonProcesses(daemonSocketPath(env));
    assert.equal(daemons.length, 1);
    assert.notEqual(daemons[0], killed, 'a new daemon answered');
    const folder = next.json.folder as { turns: number; interrupted_recording: { pid: number; turns_written: number; video: { state: string; path: string; duration_s: number } } };
    assert.equal(folder.interrupted_recording.pid, killed);
    assert.equal(folder.interrupted_recording.turns_written, 2);
    assert.equal(folder.interrupted_recording.video.state, 'finalised', JSON.stringify(folder));
    assert.deepEqual(assertWholeTurns(dir), ['turn-00001', 'turn-00002']);
    assert.deepEqual(readdirSync(dir).sort(), ['recording.mp4', 'turn-00001', 'turn-00002'], 'nothing hidden or partial is left');
    const { stdout } = await execFileAsync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name', '-of', 'json', join(dir, 'recording.mp4')], { timeout: 10_000 });
    const probed = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { duration: string } };
    assert.equal(probed.streams[0]!.codec_name, 'h264');
    assert.ok(Number(probed.format.duration) > 1, `ffprobe reads ${probed.format.duration} s`);

    // Looking again finds nothing more to finish; a start into the folder says what is there.
    const again = await cli('get_recording_state', { output_dir: dir });
    assert.equal((again.json.folder as { interrupted_recording?: unknown }).interrupted_recording, undefined);
    const refused = await cli('start_recording', { output_dir: dir });
    assert.equal(refused.json.error, 'output_dir_in_use');
  });

  test('killed in the middle of writing turns: whole turn folders or none, and the half-written one is cleared', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cup-fault-rec-'));
    assert.equal((await cli('start_recording', { output_dir: dir })).status, 0);
    const state = await cli('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
    const button = (state.json.elements as { index: number; name: string }[]).find((element) => element.name === 'Increment')!;
    // A plan of many recorded clicks, each writing a turn folder, cut by the kill once a few are written.
    const steps = Array.from({ length: 40 }, () => ({ tool: 'click', arguments: { element_index: button.index } }));
    const plan = spawn(process.execPath, [cliPath, 'call', 'run_actions', JSON.stringify({ window_id: window.id, steps, diff: false })], { env, stdio: 'ignore' });
    const planExited = new Promise((resolve) => plan.once('exit', resolve));
    await waitUntil('three turn folders are written', 30_000, () => readdirSync(dir).filter((name) => name.startsWith('turn-')).length >= 3);
    killDaemon();
    await planExited;
    const seen = readdirSync(dir);
    const turns = assertWholeTurns(dir);
    assert.ok(turns.length >= 3 && turns.length < 40, `${turns.length} turns`);
    const hidden = seen.filter((name) => name.startsWith('.') && name !== '.recording.json');
    const next = await cli('get_recording_state', { output_dir: dir });
    assert.equal(next.status, 0, next.stderr);
    const interrupted = (next.json.folder as { interrupted_recording: { turns_written: number; partial_turns_removed: number } }).interrupted_recording;
    assert.equal(interrupted.turns_written, turns.length);
    assert.equal(interrupted.partial_turns_removed, hidden.length, `the dead daemon left ${JSON.stringify(hidden)}`);
    assert.deepEqual(readdirSync(dir).sort(), turns, 'only whole turn folders remain');
    assert.ok(!existsSync(join(dir, '.recording.json')));
  });
});
