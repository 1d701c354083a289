import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ToolError } from '../../src/errors.js';
import { entryForProcess } from '../../src/platform/linux/applications.js';
import { bestEntry, installedApplications } from '../../src/platform/linux/desktop-entries.js';
import { planLaunch, programFor, startDetached } from '../../src/platform/linux/launcher.js';

/**
 * Real .desktop files on disk, laid out as Debian's Thunar ships them (the app and its Bulk Rename tool run the
 * same program), plus entries that tie on the program. Only this directory is searched.
 */
describe('which .desktop entry a name launches', () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-entries-'));
  const dir = join(home, 'applications');
  mkdirSync(dir);
  const write = (id: string, name: string, exec: string) => writeFileSync(join(dir, id), `[Desktop Entry]\nType=Application\nName=${name}\nExec=${exec}\n`);
  write('thunar-bulk-rename.desktop', 'Bulk Rename', 'thunar --bulk-rename %F');
  write('thunar.desktop', 'Thunar File Manager', 'thunar %F');
  write('thunar-settings.desktop', 'File Manager Settings', 'thunar-settings');
  write('org.example.Viewer.desktop', 'Picture Viewer', 'viewer %U');
  write('a-viewer-slideshow.desktop', 'Slideshow', 'viewer --slideshow %U');
  write('zz-second.desktop', 'Second Pad', 'pad %u');
  write('aa-first.desktop', 'First Pad', 'pad %u');
  write('named-like-an-id.desktop', 'thunar.desktop', 'other-program');
  process.env.XDG_DATA_HOME = home;
  process.env.XDG_DATA_DIRS = join(home, 'none');
  after(() => rmSync(home, { recursive: true, force: true }));

  const planned = (name: string, urls: string[] = []) => {
    const plan = planLaunch(name, urls, []);
    return { id: plan.entry?.id, by: plan.matchedBy, argv: [plan.command, ...plan.args] };
  };

  test('the exact desktop id wins over a Name or a program match', () => {
    assert.deepEqual(planned('thunar'), { id: 'thunar.desktop', by: 'id', argv: ['thunar'] });
    assert.deepEqual(planned('thunar.desktop'), { id: 'thunar.desktop', by: 'id', argv: ['thunar'] }, 'over the entry whose Name is "thunar.desktop"');
    assert.deepEqual(planned('THUNAR'), { id: 'thunar.desktop', by: 'id', argv: ['thunar'] });
    assert.deepEqual(planned('viewer').id, 'org.example.Viewer.desktop', 'the last part of a reverse-DNS id');
  });

  test('then the exact Name, case-insensitive; then the program, an entry running it plainly first; then substrings', () => {
    assert.deepEqual(planned('bulk rename', ['/tmp/a', '/tmp/b']), { id: 'thunar-bulk-rename.desktop', by: 'name', argv: ['thunar', '--bulk-rename', '/tmp/a', '/tmp/b'] });
    assert.deepEqual(planned('Slideshow').by, 'name');
    assert.deepEqual(planned('pad'), { id: 'aa-first.desktop', by: 'program', argv: ['pad'] }, 'a tie goes to the id that sorts first');
    assert.deepEqual(planned('Manager Settings'), { id: 'thunar-settings.desktop', by: 'substring', argv: ['thunar-settings'] });
    assert.equal(planned('node').id, undefined, 'a program on PATH beats a substring');
    assert.throws(() => planLaunch('no-such-thing-here', [], []), (error: unknown) => error instanceof ToolError && error.code === 'app_not_found');
  });

  test('the choice does not depend on the order the entries are read in', () => {
    const entries = installedApplications();
    for (const name of ['thunar', 'pad', 'viewer', 'bulk rename']) {
      assert.equal(bestEntry([...entries].reverse(), name)?.entry.id, bestEntry(entries, name)?.entry.id, name);
    }
  });

  test('urls the entry cannot take are refused, never dropped', () => {
    const refused = (name: string, urls: string[]) => {
      assert.throws(() => planLaunch(name, urls, []), (error: unknown) => error instanceof ToolError && error.code === 'urls_not_opened', name);
    };
    refused('thunar-settings', ['/tmp/a']);
    refused('First Pad', ['/tmp/a', '/tmp/b']);
    assert.deepEqual(planned('First Pad', ['/tmp/a']).argv, ['pad', '/tmp/a']);
    assert.deepEqual(planned('thunar-settings').argv, ['thunar-settings']);
  });

  test('an entry\'s program is found where a session finds it: on PATH, else in its games directories; else nothing starts, and the error says why', () => {
    // GNOME Mines' entry runs "gnome-mines", installed in /usr/games, which root's PATH lacks: launch_app failed with internal_error.
    const games = join(home, 'games');
    mkdirSync(games);
    writeFileSync(join(games, 'a-game'), '#!/bin/sh\n');
    chmodSync(join(games, 'a-game'), 0o755);
    assert.equal(programFor('a-game', [games]), join(games, 'a-game'));
    assert.equal(programFor('a-game', []), undefined);
    assert.match(programFor('node', [games]) ?? '', /\/node$/, 'PATH first');
    write('a-game.desktop', 'A Game', 'no-such-program-anywhere %U');
    assert.throws(
      () => startDetached(planLaunch('a-game', [], []), home, true),
      (error: unknown) => error instanceof ToolError && error.code === 'app_not_found' && /"no-such-program-anywhere", which the desktop entry .*a-game\.desktop runs: it is not on PATH .* nothing was started/.test(error.message),
    );
  });

  test('a running program is matched to the app entry, not to a tool that runs the same program with options', () => {
    const entries = installedApplications();
    assert.equal(entryForProcess(0, 'Thunar', entries)?.id, 'thunar.desktop');
    assert.equal(entryForProcess(0, 'viewer', entries)?.id, 'org.example.Viewer.desktop');
  });
});
