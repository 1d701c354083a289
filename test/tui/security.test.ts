import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ToolError } from '../../src/errors.js';
import { resolveWorkingDirectory } from '../../src/tui/security/cwd.js';
import { prepareEnvironment } from '../../src/tui/security/environment.js';
import { buildPolicy, DEFAULT_PROGRAMS, loadPolicyFile } from '../../src/tui/security/policy.js';
import { checkArguments, resolveProgram } from '../../src/tui/security/program.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'cup-tui-security-')));
const policy = buildPolicy(undefined, work, 'test defaults');

function refusal(code: string, mention: string) {
  return (error: unknown) => error instanceof ToolError && error.code === code && error.message.includes(mention);
}

test('the default allowlist has the common shells and terminal tools', () => {
  for (const name of ['sh', 'bash', 'zsh', 'python3', 'node', 'vim', 'nano', 'less', 'top', 'htop', 'mc', 'dialog', 'whiptail']) {
    assert.ok((DEFAULT_PROGRAMS as readonly string[]).includes(name), name);
  }
});

test('mc runs shell commands as bash does, so it is allowed by default and refused by a policy that lists programs without it', () => {
  assert.equal(resolveProgram('mc', policy, '/usr/bin:/bin'), '/usr/bin/mc');
  const noShells = buildPolicy({ programs: ['less', 'htop'] }, work, 'no shells');
  for (const name of ['mc', 'bash']) assert.throws(() => resolveProgram(name, noShells, '/usr/bin:/bin'), refusal('command_rejected', `"${name}" is not an allowed program`));
});

test('the default allowlist: viewers, file managers and git browsers in; session leavers and machine-wide tools left to the policy file', () => {
  const programs = DEFAULT_PROGRAMS as readonly string[];
  // Their escapes (shell commands, $EDITOR, pipes) reach only what the listed shells already do.
  for (const name of ['ncdu', 'tig', 'ranger', 'w3m', 'mc', 'less', 'man', 'nvim']) assert.ok(programs.includes(name), `${name} is in`);
  // tmux and screen servers, calcurse's notification daemon and nohup'd or setsid'd work leave the session
  // tui_stop ends; aptitude, nmtui and alsamixer change the machine for every user; sudo and su change rights.
  for (const name of ['tmux', 'screen', 'calcurse', 'nohup', 'setsid', 'aptitude', 'apt', 'nmtui', 'alsamixer', 'sudo', 'su']) {
    assert.ok(!programs.includes(name), `${name} is out`);
  }
});

test('a program left out is refused by default and allowed by the policy file\'s extraPrograms', () => {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), 'cup-tui-path-')));
  const calcurse = join(directory, 'calcurse');
  writeFileSync(calcurse, '#!/bin/sh\n');
  chmodSync(calcurse, 0o755);
  assert.throws(() => resolveProgram('calcurse', policy, directory), refusal('command_rejected', '"calcurse" is not an allowed program'));
  const widened = buildPolicy({ extraPrograms: ['calcurse'] }, work, 'test policy');
  assert.equal(resolveProgram('calcurse', widened, directory), calcurse);
  assert.ok(widened.programs.has('bash') && widened.programs.has('ncdu'), 'extraPrograms keeps the defaults');
});

test('programs: allowed names resolve on the driver PATH; anything else is refused by name', () => {
  assert.equal(resolveProgram('bash', policy, '/usr/bin:/bin'), '/usr/bin/bash');
  assert.equal(resolveProgram('/usr/bin/less', policy, '/usr/bin:/bin'), '/usr/bin/less');
  assert.throws(() => resolveProgram('curl', policy, '/usr/bin'), refusal('command_rejected', '"curl" is not an allowed program'));
  assert.throws(() => resolveProgram('./bash', policy, '/usr/bin'), refusal('command_rejected', 'relative path'));
  assert.throws(() => resolveProgram('/usr/bin/curl', policy, '/usr/bin'), refusal('command_rejected', '"/usr/bin/curl"'));
  // A copy of bash under an allowed name, outside the search path, does not pass for bash.
  mkdirSync(join(work, 'bin'));
  copyFileSync('/usr/bin/bash', join(work, 'bin', 'bash'));
  chmodSync(join(work, 'bin', 'bash'), 0o755);
  assert.throws(() => resolveProgram(join(work, 'bin', 'bash'), policy, '/usr/bin:/bin'), refusal('command_rejected', 'outside the program search path'));
  const odd = buildPolicy({ programs: ['no-such-program-here'] }, work, 'odd');
  assert.throws(() => resolveProgram('no-such-program-here', odd, '/usr/bin'), refusal('spawn_failed', 'not installed'));
});

test('arguments: each must match the general pattern and the program\'s own', () => {
  checkArguments('bash', ['--norc', '-c', 'echo "hi" | wc -c'], policy);
  assert.throws(() => checkArguments('bash', ['ok', 'bad\x1b[31m'], policy), (error: unknown) => error instanceof ToolError && error.code === 'argv_rejected' && error.details.index === 1 && error.details.bad === 'bad\x1b[31m');
  assert.throws(() => checkArguments('bash', ['x'.repeat(5000)], policy), refusal('argv_rejected', 'argument 0'));
  const strict = buildPolicy({ programArguments: { python3: '^(?!-c$).*$' } }, work, 'strict');
  checkArguments('python3', ['-q'], strict);
  assert.throws(() => checkArguments('python3', ['-c', 'print(1)'], strict), refusal('argv_rejected', 'refused for python3'));
});

test('environment: loader and interpreter injection variables and invalid names are stripped', () => {
  const { env, stripped } = prepareEnvironment(
    { PATH: '/usr/bin', LD_PRELOAD: '/tmp/evil.so', HOME: '/root' },
    {
      PS1: '$ ', LD_LIBRARY_PATH: '/x', LD_AUDIT: '/x', NODE_OPTIONS: '--require /x', NODE_PATH: '/x', BASH_ENV: '/x', ENV: '/x',
      PYTHONSTARTUP: '/x', PERL5OPT: '-Mx', DYLD_INSERT_LIBRARIES: '/x', 'BAD KEY': '1', 'A=B': '1', '1ABC': '1', TERM: 'dumb', GOOD_ONE: 'yes',
    },
    { TERM: 'xterm-256color' },
  );
  assert.deepEqual(stripped, ['1ABC', 'A=B', 'BAD KEY', 'BASH_ENV', 'DYLD_INSERT_LIBRARIES', 'ENV', 'LD_AUDIT', 'LD_LIBRARY_PATH', 'LD_PRELOAD', 'NODE_OPTIONS', 'NODE_PATH', 'PERL5OPT', 'PYTHONSTARTUP', 'TERM']);
  assert.deepEqual(env, { PATH: '/usr/bin', HOME: '/root', PS1: '$ ', GOOD_ONE: 'yes', TERM: 'xterm-256color' });
});

test('cwd: resolved through symlinks and contained in the allowed roots', () => {
  const inside = join(work, 'project');
  mkdirSync(inside);
  writeFileSync(join(work, 'file.txt'), 'x');
  symlinkSync('/etc', join(work, 'escape'));
  symlinkSync(inside, join(work, 'alias'));
  const roots = buildPolicy({ cwdRoots: [work] }, work, 'roots');
  assert.equal(resolveWorkingDirectory(undefined, roots), work);
  assert.equal(resolveWorkingDirectory(inside, roots), inside);
  assert.equal(resolveWorkingDirectory('project', roots, work), inside);
  assert.equal(resolveWorkingDirectory(join(work, 'alias'), roots), inside, 'a link that stays inside is fine');
  assert.throws(() => resolveWorkingDirectory(join(work, 'escape'), roots), (error: unknown) => error instanceof ToolError && error.code === 'cwd_rejected' && error.message.includes('resolves to /etc'));
  assert.throws(() => resolveWorkingDirectory('/etc', roots), refusal('cwd_rejected', 'outside the allowed roots'));
  assert.throws(() => resolveWorkingDirectory(join(work, '..'), roots), refusal('cwd_rejected', 'outside the allowed roots'));
  assert.throws(() => resolveWorkingDirectory(join(work, 'missing'), roots), refusal('cwd_rejected', 'does not exist'));
  assert.throws(() => resolveWorkingDirectory(join(work, 'file.txt'), roots), refusal('cwd_rejected', 'not a directory'));
});

test('the policy file: absent means defaults, broken means every start is refused with the reason', () => {
  const loadPolicy = (path: string, directory: string) => {
    const loaded = loadPolicyFile(path);
    return buildPolicy(loaded.file, directory, loaded.source);
  };
  assert.equal(loadPolicy(join(work, 'absent.json'), work).source, 'the default terminal policy');
  const file = join(work, 'policy.json');
  writeFileSync(file, JSON.stringify({ extraPrograms: ['fortune'], cwdRoots: [work] }));
  const loaded = loadPolicy(file, work);
  assert.ok(loaded.programs.has('fortune') && loaded.programs.has('bash'));
  assert.deepEqual(loaded.cwdRoots, [work]);
  writeFileSync(file, '{ not json');
  assert.throws(() => loadPolicy(file, work), refusal('policy_invalid', 'not valid JSON'));
  writeFileSync(file, JSON.stringify({ allowEverything: true }));
  assert.throws(() => loadPolicy(file, work), refusal('policy_invalid', 'allowEverything'));
  writeFileSync(file, JSON.stringify({ argumentPattern: '(' }));
  assert.throws(() => loadPolicy(file, work), refusal('policy_invalid', 'invalid regular expression'));
});
