import { test } from 'node:test';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { callCliJson, daemonProcesses, stopDaemon } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { commandLine, processIds } from '../../src/platform/linux/desktop/processes.js';

test('explore ffmpeg after daemon kill', async () => {
  const desktop = await TestDesktop.start();
  const env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'cup-fault-rec-'));
    const r = await callCliJson(env, 'start_recording', { output_dir: dir, record_video: true, video_fps: 10 });
    console.log(r.status, r.stderr);
    await new Promise((res) => setTimeout(res, 1500));
    const ff = processIds().filter((pid) => commandLine(pid).some((a) => a.endsWith('ffmpeg')) && commandLine(pid).some((a) => a.startsWith(dir)));
    console.log('ffmpeg', ff, ff.map((p) => execFileSync('cat', [`/proc/${p}/status`]).toString().split('\n').filter((l) => /SigIgn|SigBlk|SigCgt|PPid/.test(l)).join(' ')));
    for (const pid of daemonProcesses(daemonSocketPath(env))) process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 20; i++) {
      await new Promise((res) => setTimeout(res, 100));
      const alive = ff.filter((p) => { try { process.kill(p, 0); return true; } catch { return false; } });
      console.log(i, alive, readdirSync(dir).map((n) => `${n}:${statSync(join(dir, n)).size}`).join(' '));
      if (!alive.length) break;
    }
    for (const n of readdirSync(dir)) try { console.log(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', join(dir, n)]).toString()); } catch (e) { console.log('probe fail', n, String(e).slice(0, 200)); }
  } finally {
    await stopDaemon(env);
    await desktop.stop();
  }
});
