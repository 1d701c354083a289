import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pixelChange } from '../../src/image/diff.js';
import { fitWithin } from '../../src/image/encode.js';
import { entryForProcess } from '../../src/platform/linux/applications.js';
import { editableAround } from '../../src/platform/linux/browser/cdp-field.js';
import { installedApplications, programOf } from '../../src/platform/linux/desktop-entries.js';
import { MissingPackageError, requireProgram } from '../../src/platform/linux/desktop/requirements.js';
import { elementHandle } from '../../src/platform/linux/element-handle.js';
import { logDirectory } from '../../src/platform/linux/desktop/state-dir.js';
import { parseSize } from '../../src/platform/linux/desktop/virtual-desktop.js';
import { ConfigStore } from '../../src/tools/state/config-store.js';
import { ImageMappings } from '../../src/tools/state/image-mappings.js';
import { SnapshotStore } from '../../src/tools/state/snapshot-store.js';

describe('installed applications from .desktop files', () => {
  function dataDir() {
    const home = mkdtempSync(join(tmpdir(), 'cup-xdg-'));
    const user = join(home, 'user', 'applications');
    const system = join(home, 'system', 'applications');
    mkdirSync(join(system, 'kde'), { recursive: true });
    mkdirSync(user, { recursive: true });
    const entry = (name: string, exec: string, extra = '') => `[Desktop Entry]\nType=Application\nName=${name}\nExec=${exec}\n${extra}`;
    writeFileSync(join(system, 'org.example.Calc.desktop'), entry('System Calc', '/usr/bin/calc %U', 'StartupWMClass=CalcWin\n'));
    writeFileSync(join(user, 'org.example.Calc.desktop'), entry('My Calc', 'env LANG=C calc --flag'));
    writeFileSync(join(system, 'hidden.desktop'), entry('Hidden', 'hidden', 'NoDisplay=true\n'));
    writeFileSync(join(system, 'link.desktop'), '[Desktop Entry]\nType=Link\nName=Web\nURL=https://example.org\n');
    writeFileSync(join(system, 'kde', 'editor.desktop'), entry('Editor', '"/opt/my editor/bin/edit" %F') + '[Desktop Action new]\nName=Not this\n');
    writeFileSync(join(system, 'broken.desktop'), 'no header here');
    utimesSync(join(system, 'kde', 'editor.desktop'), new Date('2024-01-02T03:04:05Z'), new Date('2024-01-02T03:04:05Z'));
    return { XDG_DATA_HOME: join(home, 'user'), XDG_DATA_DIRS: join(home, 'system') };
  }

  test('user entries override system ones; NoDisplay, non-applications and broken files are left out', () => {
    const entries = installedApplications(dataDir());
    assert.deepEqual(entries.map((entry) => `${entry.id}=${entry.name}`), ['kde-editor.desktop=Editor', 'org.example.Calc.desktop=My Calc']);
    const editor = entries[0]!;
    assert.equal(editor.program, 'edit');
    assert.equal(editor.lastModified.toISOString(), '2024-01-02T03:04:05.000Z');
    assert.equal(entries[1]!.program, 'calc', 'env VAR=... wrappers are skipped');
  });

  test('the program of an Exec line', () => {
    assert.equal(programOf('/usr/bin/gnome-calculator'), 'gnome-calculator');
    assert.equal(programOf('env GDK_BACKEND=x11 FOO=1 firefox %u'), 'firefox');
    assert.equal(programOf('"/opt/App Dir/app" --x'), 'app');
  });

  test('a running process is matched to its entry by window class, then by program', () => {
    const entries = installedApplications(dataDir());
    assert.equal(entryForProcess(0, 'org.example.Calc', entries)?.name, 'My Calc');
    assert.equal(entryForProcess(0, 'edit', entries)?.name, 'Editor');
    assert.equal(entryForProcess(0, 'nothing-like-it', entries), undefined);
  });
});

describe('set-up errors name the package and the command that installs it', () => {
  test('a missing program', () => {
    assert.throws(
      () => requireProgram('cup-no-such-program', 'cup-package'),
      (error: unknown) =>
        error instanceof MissingPackageError && /cup-no-such-program is not installed.*"cup-package".*apt-get install -y cup-package/.test(error.message),
    );
    assert.equal(requireProgram('/bin/sh', 'dash'), '/bin/sh');
  });

  test('desktop sizes', () => {
    assert.deepEqual(parseSize('1280x800'), { width: 1280, height: 800 });
    assert.throws(() => parseSize('1280*800'), /expected WIDTHxHEIGHT/);
    assert.throws(() => parseSize('10x10'), /between 64 and 8192/);
    // Sides of any digit count get the range, not only those of two to five digits.
    assert.throws(() => parseSize('0x0'), /between 64 and 8192/);
    assert.throws(() => parseSize('100000x800'), /between 64 and 8192/);
  });

  test('the log folder exists before anything opens a log in it, with no desktop started first', () => {
    const runtime = mkdtempSync(join(tmpdir(), 'cup-runtime-'));
    const logs = logDirectory({ XDG_RUNTIME_DIR: runtime });
    assert.equal(logs, join(runtime, 'cup-driver', 'logs'));
    assert.ok(statSync(logs).isDirectory());
  });
});

describe('session state', () => {
  test('config: defaults, persisted atomically, read back by a new store, corrupt files reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cup-config-'));
    const path = join(dir, 'sub', 'config.json');
    assert.equal(new ConfigStore({ readFrom: path }).get().max_image_dimension, 1568);
    new ConfigStore({ readFrom: path, writeTo: path }).set({ max_image_dimension: 800 });
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).max_image_dimension, 800);
    assert.equal(new ConfigStore({ readFrom: path }).get().max_image_dimension, 800);
    const memoryOnly = new ConfigStore({ readFrom: path });
    memoryOnly.set({ max_image_dimension: 100 });
    assert.equal(new ConfigStore({ readFrom: path }).get().max_image_dimension, 800, 'a session without writeTo does not persist');
    writeFileSync(path, '{broken');
    assert.throws(() => new ConfigStore({ readFrom: path }), /not valid JSON.*fix or delete it/);
  });

  test('screenshots fit the longest side and remember the scale back to the window', () => {
    assert.deepEqual(fitWithin(503, 640, 1568), { width: 503, height: 640, scale: 1 });
    assert.deepEqual(fitWithin(503, 640, 0), { width: 503, height: 640, scale: 1 });
    const fitted = fitWithin(2000, 1000, 500);
    assert.deepEqual([fitted.width, fitted.height, fitted.scale], [500, 250, 4]);
    const mappings = new ImageMappings();
    mappings.rememberScreenshot({ windowId: 7, imageWidth: 500, imageHeight: 250, windowWidth: 2000, windowHeight: 1000, scale: 4 });
    assert.deepEqual(mappings.screenshotToWindow(7, 10, 20), { x: 40, y: 80 });
    assert.deepEqual(mappings.screenshotToWindow(8, 10, 20), { x: 10, y: 20 });
    mappings.rememberZoom(42, { windowId: 7, region: { x: 100, y: 50, w: 200, h: 100 }, imageWidth: 400, imageHeight: 200 });
    assert.deepEqual(mappings.zoomToWindow(42, 200, 100), { windowId: 7, x: 200, y: 100 });
    assert.equal(mappings.zoomToWindow(43, 1, 1), undefined);
  });

  test('snapshots: ids are unique, the latest per window is found, old ones are dropped at capacity', () => {
    const store = new SnapshotStore(2);
    const element = { index: 3, handle: elementHandle({ bus: ':1.2', path: '/a/3', atspiRole: 43 }), role: 'button', name: 'OK' };
    const first = store.add(100, 1, [element]);
    const second = store.add(100, 1, []);
    assert.notEqual(first.id, second.id);
    assert.equal(store.latest(100, 1)?.id, second.id);
    assert.equal(store.get(first.id)?.elements.get(3)?.handle, element.handle);
    store.add(100, 2, []);
    assert.equal(store.get(first.id), undefined);
    assert.equal(store.latest(999, 1), undefined);
  });

  test('the windows of a process read in the session, the latest read first, only while their snapshots are kept', () => {
    const store = new SnapshotStore(3);
    store.add(100, 1, []);
    store.add(200, 9, []);
    store.add(100, 2, []);
    assert.deepEqual(store.windowsReadOf(100), [2, 1]);
    assert.deepEqual(store.windowsReadOf(200), [9]);
    store.add(300, 5, []);
    assert.deepEqual(store.windowsReadOf(100), [2], 'window 1\'s only snapshot was dropped');
    assert.deepEqual(store.windowsReadOf(999), []);
  });
});

describe('pixel read-back', () => {
  const image = (width: number, height: number) => ({ width, height, channels: 3 as const, data: Buffer.alloc(width * height * 3, 200) });

  test('the changed pixels and the box around them', () => {
    const before = image(10, 8);
    const after = image(10, 8);
    assert.deepEqual(pixelChange(before, after), { count: 0 });
    after.data[(2 * 10 + 3) * 3] = 0;
    after.data[(5 * 10 + 7) * 3 + 2] = 0;
    assert.deepEqual(pixelChange(before, after), { count: 2, box: { x: 3, y: 2, w: 5, h: 4 } });
    assert.equal(pixelChange(before, image(9, 8)).count, 80, 'a resized window changed everywhere');
  });
});

describe('the editable node around a DevTools hit', () => {
  // Shaped as Chromium's Accessibility.getPartialAXTree answers (fetchRelatives): the hit node, its ancestors, their children.
  const editable = [{ name: 'editable', value: { type: 'token' as const, value: 'richtext' } }];
  const node = (nodeId: string, role: string, parentId: string | undefined, extra: Record<string, unknown> = {}) => ({
    nodeId,
    ignored: false,
    role: { type: 'role' as const, value: role },
    ...(parentId ? { parentId } : {}),
    backendDOMNodeId: Number(nodeId),
    ...extra,
  });

  test('a contenteditable\'s text inside a paragraph: the host, past an ignored wrapper, not the paragraph', () => {
    const nodes = [
      node('5', 'StaticText', '4', { properties: editable }),
      node('4', 'paragraph', '3', { properties: editable }),
      node('3', 'generic', '2', { ignored: true }),
      node('2', 'textbox', '1', { properties: editable, name: { type: 'computedString' as const, value: 'Notes' } }),
      node('1', 'form', undefined),
    ];
    assert.equal(editableAround(nodes, 5)?.nodeId, '2');
  });

  test('an input hit itself is the field; a hit outside any editable node is none', () => {
    const nodes = [node('7', 'textbox', '6', { properties: [{ name: 'editable', value: { type: 'token' as const, value: 'plaintext' } }] }), node('6', 'LabelText', '1'), node('1', 'RootWebArea', undefined)];
    assert.equal(editableAround(nodes, 7)?.nodeId, '7');
    assert.equal(editableAround([node('6', 'LabelText', '1'), node('1', 'RootWebArea', undefined)], 6), undefined);
  });
});
