import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';
import { failsWith } from '../helpers/tools.js';

const { context, start } = useTerminals();

test('tui_start refuses programs off the allowlist, naming the command', async () => {
  const refused = await failsWith(context, 'tui_start', { command: 'curl', args: ['http://example.org'] }, 'command_rejected');
  assert.match(refused.summary, /"curl" is not an allowed program \(allowed: .*bash.*\)/);
  assert.deepEqual(refused.structured.bad, 'curl');
  await failsWith(context, 'tui_start', { command: '../bin/bash' }, 'command_rejected');
  await failsWith(context, 'tui_start', { command: '/usr/bin/env', args: ['bash'] }, 'command_rejected');
  assert.deepEqual(context.terminals.names(), [], 'nothing was started');
});

test('tui_start refuses an argument that fails the pattern check, naming it and its position', async () => {
  const refused = await failsWith(context, 'tui_start', { command: 'bash', args: ['--norc', 'printf "\u001b]0;x\u0007"'] }, 'argv_rejected');
  assert.equal(refused.structured.index, 1);
  assert.match(refused.summary, /argument 1 /);
});

test('tui_start refuses a cwd outside the allowed roots, including through a symlink inside one', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cup-tui-cwd-')));
  mkdirSync(join(root, 'inside'));
  symlinkSync('/etc', join(root, 'to-etc'));
  const outside = await failsWith(context, 'tui_start', { command: 'bash', cwd: '/etc' }, 'cwd_rejected');
  assert.match(outside.summary, /outside the allowed roots/);
  const escape = await failsWith(context, 'tui_start', { command: 'bash', cwd: join(root, 'to-etc') }, 'cwd_rejected');
  assert.match(escape.summary, /resolves to \/etc/);
  assert.equal(escape.structured.reason, 'outside_roots');
  await failsWith(context, 'tui_start', { command: 'bash', cwd: join(root, 'missing') }, 'cwd_rejected');

  // A directory inside a root is fine, and the program really runs there.
  await start({ command: 'bash', args: ['--norc', '--noprofile'], cwd: join(root, 'inside'), env: { PS1: '$ ' } });
  await callOk(context, 'tui_type', { text: 'pwd\n' });
  await callOk(context, 'tui_wait_for', { selector: `role=text name="${join(root, 'inside')}"` });
  await callOk(context, 'tui_stop');
});

test('injection variables never reach the program, from the caller or from the driver\'s own environment', async () => {
  process.env.LD_AUDIT = '/nonexistent/audit.so';
  try {
    const started = await start({
      command: 'bash',
      args: ['--norc', '--noprofile'],
      env: { PS1: '$ ', LD_PRELOAD: '/nonexistent/evil.so', NODE_OPTIONS: '--require /x', BASH_ENV: '/x', PYTHONSTARTUP: '/x', 'NOT A NAME': 'x', KEEP_ME: 'kept' },
      session: 'env',
    });
    assert.deepEqual(started.structured.strippedEnv, ['BASH_ENV', 'LD_AUDIT', 'LD_PRELOAD', 'NODE_OPTIONS', 'NOT A NAME', 'PYTHONSTARTUP']);
    await callOk(context, 'tui_type', { text: 'env | grep -cE "^(LD_|NODE_OPTIONS|BASH_ENV|PYTHONSTARTUP)"; echo "keep=$KEEP_ME term=$TERM"\n', session: 'env' });
    await callOk(context, 'tui_wait_for', { selector: 'role=text name="keep=kept term=xterm-256color"', session: 'env' });
    const texts = nodes(await callOk(context, 'tui_snapshot', { session: 'env' })).filter((node) => node.role === 'text').map((node) => node.name);
    assert.ok(texts.includes('0'), `grep counted no injection variables: ${JSON.stringify(texts)}`);
    await callOk(context, 'tui_stop', { session: 'env' });
  } finally {
    delete process.env.LD_AUDIT;
  }
});
