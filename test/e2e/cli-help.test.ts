import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../daemon/helpers.js';

interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, { type?: string; enum?: unknown[] }>; required?: string[] };
}

describe("the command line's help: every command answers --help and -h, call TOOL --help shows the tool's arguments", () => {
  // Its own state directory: a help that started a daemon would leave its socket here.
  const runtime = mkdtempSync(join(tmpdir(), 'cup-help-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: runtime, DISPLAY: ':1' };

  after(() => rmSync(runtime, { recursive: true, force: true }));

  test('call TOOL --help, call TOOL -h and tools TOOL list every argument of the published schema, the required ones marked', async () => {
    const listed = JSON.parse((await runCli(['tools', '--json'], env)).stdout) as ListedTool[];
    // Tools with required fields, enums and defaults, and one with none; each asked one of the ways.
    const asked: [string, string[]][] = [
      ['scroll', ['call', 'scroll', '--help']],
      ['wait_for', ['call', 'wait_for', '-h']],
      ['run_actions', ['tools', 'run_actions']],
      ['list_apps', ['call', '--session', 'x', 'list_apps', '--help']],
    ];
    for (const [name, args] of asked) {
      const schema = listed.find((tool) => tool.name === name)!.inputSchema;
      const run = await runCli(args, env);
      assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stderr, '', args.join(' '));
      assert.match(run.stdout, new RegExp(`^${name}: `), args.join(' '));
      const shown = new Map([...run.stdout.matchAll(/^ {2}(\w+): (.*)$/gm)].map((match) => [match[1]!, match[2]!]));
      assert.deepEqual([...shown.keys()].sort(), Object.keys(schema.properties ?? {}).sort(), `${args.join(' ')} shows every field`);
      for (const [field, line] of shown) {
        assert.equal(/\brequired\b/.test(line), (schema.required ?? []).includes(field), `${name}.${field}: ${line}`);
        const enumValues = schema.properties![field]!.enum;
        if (enumValues) for (const value of enumValues) assert.ok(line.includes(JSON.stringify(value)), `${name}.${field} names ${String(value)}: ${line}`);
      }
    }
    assert.deepEqual(readdirSync(runtime).filter((name) => name.includes('daemon')), [], 'no daemon was started for a help');
  });

  test('--help on each command exits 0 with its own usage; no command at all is bad usage on stderr', async () => {
    for (const command of ['call', 'tools', 'mcp', 'serve', 'daemon', 'cup', 'desktop']) {
      for (const flag of command === 'mcp' ? ['--help', '-h'] : ['--help']) {
        const run = await runCli([command, flag], env);
        assert.equal(run.status, 0, `${command} ${flag}: ${run.stderr}`);
        assert.match(run.stdout, new RegExp(`cup-driver ${command} `), `${command} ${flag}`);
      }
    }
    const bare = await runCli([], env);
    assert.equal(bare.status, 2);
    assert.equal(bare.stdout, '', 'a script reading stdout gets nothing from a usage error');
    assert.match(bare.stderr, /^cup-driver .*\n\nusage:/);
  });

  test('a mistyped command, action, option or tool is answered with the nearest known one, exit 2, one line', async () => {
    const cases: [string[], RegExp][] = [
      [['calll', 'list_apps'], /unknown command "calll"; did you mean "call"\?/],
      [['daemon', 'statu'], /unknown daemon action "statu"; did you mean "status"\?/],
      [['desktop', 'strat'], /unknown desktop command "strat"; did you mean "start"\?/],
      [['cup', 'validat'], /unknown cup command "validat"; did you mean "validate"\?/],
      [['call', 'list_apps', '{}', '--jsn'], /unknown option --jsn \(did you mean --json\?\)/],
      [['tools', 'clik'], /unknown tool "clik"; did you mean "click"\?/],
      [['call', 'clik', '--help'], /unknown tool "clik"; did you mean "click"\?/],
    ];
    for (const [args, expected] of cases) {
      const run = await runCli(args, env);
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, expected);
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    }
  });
});
