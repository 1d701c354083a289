// Files the driver writes where a caller says: written whole through a temporary file and a rename, never through a
// link planted at the destination, never over a file the driver did not write unless asked (overwrite: true), and
// never half-written even when the writing process is killed with SIGKILL midway. The file system is the judge.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runTool } from '../../src/tools/run.js';
import { privateTempDirectory } from '../../src/tools/files.js';
import { cliPath, repositoryRoot, TestDesktop } from '../helpers/desktop.js';
import { callOk, failsWith, testContext } from '../helpers/tools.js';

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('files the driver writes', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let context: ReturnType<typeof testContext>;
  const dir = mkdtempSync(join(tmpdir(), 'cup-files-'));
  const outside = join(dir, 'outside.txt');

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    context = { ...testContext(), cwd: dir };
    writeFileSync(outside, 'outside, must not change\n');
  });

  after(async () => {
    await context?.desktop.close();
    await desktop?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const shoot = (file: string, extra: Record<string, unknown> = {}) =>
    runTool('get_window_state', { pid: window.pid, window_id: window.id, screenshot_out_file: file, ...extra }, context);

  test('a link planted at the destination is not followed: refused without overwrite; with it, the link itself is replaced', async () => {
    const link = join(dir, 'link.png');
    symlinkSync(outside, link);
    const before = sha(outside);
    const refused = await failsWith(context, 'get_window_state', { pid: window.pid, window_id: window.id, screenshot_out_file: 'link.png' }, 'destination_exists');
    assert.match(refused.summary, /screenshot_out_file: .*link\.png is a symbolic link/);
    assert.equal(readlinkSync(link), outside);
    const replaced = await shoot('link.png', { overwrite: true });
    assert.ok(replaced.ok, replaced.summary);
    assert.ok(lstatSync(link).isFile(), 'the link was replaced by a file');
    assert.equal((await sharp(link).metadata()).format, 'png');
    assert.equal(sha(outside), before, 'the file the link pointed at is unchanged');
  });

  test('an existing file the driver did not write is refused without overwrite and replaced with it; its own earlier screenshot is replaced', async () => {
    const foreign = join(dir, 'photo.png');
    writeFileSync(foreign, 'a file of the user\n');
    const before = sha(foreign);
    const refused = await failsWith(context, 'get_window_state', { pid: window.pid, window_id: window.id, screenshot_out_file: 'photo.png' }, 'destination_exists');
    assert.match(refused.summary, /already exists and is not a file cup-driver wrote; pass overwrite: true/);
    assert.equal(sha(foreign), before);
    assert.ok((await shoot('photo.png', { overwrite: true })).ok);
    assert.notEqual(sha(foreign), before);
    // Now the file is the driver's: the next screenshot replaces it without being asked (a new inode, by the rename).
    const inode = statSync(foreign).ino;
    assert.ok((await shoot('photo.png')).ok);
    assert.notEqual(statSync(foreign).ino, inode);
    assert.equal((await sharp(foreign).metadata()).format, 'png');
  });

  test('a directory, a FIFO or a device at the destination is refused at once, naming the field; nothing is left behind', async () => {
    mkdirSync(join(dir, 'folder'));
    execFileSync('mkfifo', [join(dir, 'pipe.png')]);
    execFileSync('mknod', [join(dir, 'zero.png'), 'c', '1', '5']);
    for (const [file, pattern] of [['folder', /is a directory/], ['pipe.png', /is not a regular file/], ['zero.png', /is not a regular file/]] as const) {
      const started = Date.now();
      const refused = await failsWith(context, 'get_window_state', { pid: window.pid, window_id: window.id, screenshot_out_file: file, overwrite: true }, 'invalid_arguments');
      assert.match(refused.summary, /^screenshot_out_file: /);
      assert.match(refused.summary, pattern);
      assert.ok(Date.now() - started < 10_000);
    }
    assert.ok(lstatSync(join(dir, 'zero.png')).isCharacterDevice());
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
  });

  test('a recording folder that is a file, a FIFO or a device is invalid_arguments naming output_dir, not an internal error', async () => {
    const folder = join(dir, 'not-folders');
    mkdirSync(folder);
    writeFileSync(join(folder, 'file.txt'), 'x');
    execFileSync('mkfifo', [join(folder, 'fifo')]);
    symlinkSync('/dev/zero', join(folder, 'link-dev'));
    for (const name of ['file.txt', 'fifo', 'link-dev']) {
      const refused = await failsWith(context, 'get_recording_state', { output_dir: join(folder, name) }, 'invalid_arguments');
      assert.match(refused.summary, /^output_dir: .* is not a folder/);
    }
  });

  test('a path that cannot name a file is invalid_arguments naming the field, not an internal error', async () => {
    const refused = await failsWith(context, 'get_window_state', { pid: window.pid, window_id: window.id, screenshot_out_file: 'x'.repeat(300) }, 'invalid_arguments');
    assert.match(refused.summary, /^screenshot_out_file: .*ENAMETOOLONG|^screenshot_out_file: .*name too long/);
  });

  test('a folder the file system will not make (under /proc/1) is refused at once, naming the field; the process goes on', () => {
    // In a process of its own (the CLI without the daemon): Node's recursive mkdir retried such a folder for ever,
    // synchronously, so the process answered nothing more; the bound turns that hang into this test's failure.
    for (const [tool, args, pattern] of [
      ['start_recording', { output_dir: '/proc/1/cup-recording' }, /^cup-driver: error \[invalid_arguments\]: output_dir \/proc\/1\/cup-recording cannot be created: ENOENT/m],
      ['get_window_state', { window_id: window.id, screenshot_out_file: '/proc/1/cup-shots/a.png' }, /^cup-driver: error \[invalid_arguments\]: screenshot_out_file: \/proc\/1\/cup-shots\/a\.png cannot be written: ENOENT/m],
    ] as const) {
      const run = spawnSync(process.execPath, [cliPath, 'call', tool, JSON.stringify(args), '--no-daemon'], { env: desktop.env(), encoding: 'utf8', timeout: 30_000 });
      assert.equal(run.signal, null, `${tool} did not answer within 30 s`);
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, pattern);
    }
  });

  test('a desktop closed opens no connection again: work still under way when its call answered finds them closed, and the process can end', async () => {
    // The CLI's get_window_state above, refused for its file while the window's tree was still being read, closed the
    // desktop as it ended; the read then opened a new X connection, and the process never exited (1 run in 6, 30 s).
    const closing = testContext();
    await callOk(closing, 'list_windows', {});
    await closing.desktop.atspi();
    closing.desktop.close();
    await assert.rejects(closing.desktop.x11(), /closed its connection to the X server/);
    await assert.rejects(closing.desktop.atspi(), /closed its connection to the accessibility bus/);
  });

  test('SIGKILL in the middle of a big write leaves the destination as it was, never half-written', async () => {
    const destination = join(dir, 'big.png');
    assert.ok((await shoot('big.png')).ok);
    const before = sha(destination);
    // A writer process of its own (the driver's function, as the CLI and the daemon run it), killed once its temporary file exists.
    const script = `import('${join(repositoryRoot, 'dist', 'src', 'tools', 'files.js')}').then(({ writeFileAtomically }) => { writeFileAtomically(${JSON.stringify(destination)}, Buffer.alloc(1 << 30, 1), { replace: 'any' }); })`;
    const writer = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    let sawTemporary = false;
    while (Date.now() < deadline && writer.exitCode === null) {
      if (readdirSync(dir).some((name) => name.startsWith('.big.png.') && name.endsWith('.tmp'))) {
        sawTemporary = true;
        writer.kill('SIGKILL');
        break;
      }
      await sleep(2);
    }
    await new Promise((resolve) => writer.once('close', resolve));
    assert.ok(sawTemporary, 'the writer was caught mid-write');
    assert.equal(sha(destination), before, 'the destination is the old file, whole');
    for (const name of readdirSync(dir).filter((entry) => entry.endsWith('.tmp'))) rmSync(join(dir, name));
  });

  test('the directory for files the driver names itself is private: this user\'s, mode 0700, not a link', () => {
    const images = privateTempDirectory('images');
    const root = join(images, '..');
    assert.equal(lstatSync(root).mode & 0o777, 0o700);
    assert.equal(lstatSync(root).uid, process.getuid!());
    assert.ok(!lstatSync(root).isSymbolicLink());
  });
});
