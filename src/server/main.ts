#!/usr/bin/env node
import { asksForHelp, flagValue, parseArgs, unknownWord, UsageError } from './cli-args.js';
import { httpFlags, httpOptionsFromFlags } from './http/http-options.js';
import { debugEnabled } from './log.js';
import { packageVersion } from './version.js';

const usage = `cup-driver ${packageVersion}: see and operate desktop apps through MCP tools, speaking CUP

usage:
  cup-driver mcp [--daemon] [--tools AREAS|NAMES]
                                                 MCP server on stdio (--daemon: calls run in the daemon;
                                                 --tools perception,input,...: serve only those)
  cup-driver mcp --http [HOST:]PORT [--token-file FILE] [--allow-origin ORIGIN]... [--allow-remote]
                 [--session-idle-timeout SECONDS] [--tools AREAS|NAMES]
                                                 MCP over Streamable HTTP at http://HOST:PORT/mcp (HOST
                                                 127.0.0.1 unless given; PORT 0 picks one). Every request
                                                 needs Authorization: Bearer <token>, read from FILE or
                                                 generated there (default: the state directory; the path
                                                 is printed). Each MCP session is a driver session of its
                                                 own, ended on DELETE or after SECONDS idle (default 1800).
                                                 A non-loopback HOST needs --allow-remote.
  cup-driver call <tool> ['<json-args>'|-] [--session NAME] [--no-daemon] [--json] [--image-dir DIR]
  cup-driver serve [--socket PATH] [--idle-timeout SECONDS] [--http [HOST:]PORT ...]
                                                 the daemon that keeps state between calls; with --http
                                                 (same HTTP flags as mcp) it serves HTTP clients too, in
                                                 its own sessions, so they share state with CLI calls
  cup-driver daemon status [--json] | stop       the daemon for this display
  cup-driver tools [--json] [TOOL...]            the tools; with names, each one's arguments in full
                                                 (the same as cup-driver call TOOL --help)
  cup-driver cup compact [--detail compact|full] [--max-chars N] < envelope.json
  cup-driver cup overview < envelope.json
  cup-driver cup validate < envelope.json
  cup-driver desktop start [--display :N] [--size WxH]
  cup-driver desktop stop [--display :N | --all]
                                                 the desktop DISPLAY names when cup-driver started it,
                                                 else the one given, or all of cup-driver's
  cup-driver desktop status [--json]

call goes through the daemon for this display, starting it on demand; it exits after
$CUP_DRIVER_IDLE_TIMEOUT seconds (default 300) with no connection. Without DISPLAY, mcp, call
and the daemon start (or reuse) an embedded virtual desktop. A failure prints one line on stderr;
CUP_DRIVER_DEBUG=1 adds the stack trace.
`;

const commands = ['mcp', 'call', 'serve', 'daemon', 'tools', 'cup', 'desktop', 'version', 'help'];

/** The usage lines of one command: its entries in the usage text, each with the lines that continue it. */
function usageOf(command: string): string {
  const lines: string[] = [];
  let inEntry = false;
  for (const line of usage.split('\n')) {
    if (line.startsWith('  cup-driver ')) inEntry = line.startsWith(`  cup-driver ${command} `);
    else if (!line.startsWith('   ')) inEntry = false;
    if (inEntry) lines.push(line);
  }
  return `usage:\n${lines.join('\n')}\n`;
}

/**
 * `--help` or `-h` after a command prints its usage (and after `call TOOL` the tool's arguments) instead of failing
 * as an unknown option, or, for `call TOOL -h`, as arguments that are not valid JSON.
 */
async function printHelp(command: string, rest: readonly string[]): Promise<void> {
  // desktop has a help of its own, longer than its usage lines.
  if (command === 'desktop') {
    await (await import('./desktop-command.js')).desktopCommand(['--help']);
    return;
  }
  const tool = command === 'call' ? (await import('./call-command.js')).calledTool(rest) : undefined;
  if (tool !== undefined) {
    const { toolHelp, toolNamed } = await import('./tool-help.js');
    process.stdout.write(toolHelp(toolNamed(tool)));
    return;
  }
  process.stdout.write(usageOf(command));
  if (command === 'call') process.stdout.write("\ncup-driver call TOOL --help shows one tool's arguments; cup-driver tools lists the tools\n");
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && commands.includes(command) && asksForHelp(rest)) {
    await printHelp(command, rest);
    return 0;
  }
  switch (command) {
    // Each command loads only its own modules: a `call` through the daemon never loads the tools, sharp or the desktop clients.
    case 'mcp': {
      const args = parseArgs(rest, { boolean: ['daemon', ...httpFlags.boolean], valued: ['tools', ...httpFlags.valued], repeated: httpFlags.repeated });
      if (args.positional.length > 0) throw new UsageError(`mcp takes no arguments, got: ${args.positional.join(' ')}`);
      const http = httpOptionsFromFlags(args);
      if (http && args.flags.has('daemon')) throw new UsageError('mcp --http serves in this process; for HTTP clients sharing the daemon\'s state run cup-driver serve --http [HOST:]PORT');
      const [{ serveMcpOverStdio, selectTools }, runners] = await Promise.all([import('./mcp-server.js'), import('./tool-runners.js')]);
      const served = selectTools(flagValue(args, 'tools'));
      if (http) {
        await (await import('./http/serve-http.js')).serveMcpOverHttp(served, http);
        return 0;
      }
      const runner = args.flags.has('daemon')
        ? runners.daemonRunner('mcp', runners.mcpSessionId())
        : await runners.inProcessRunner('mcp');
      await serveMcpOverStdio(runner, served);
      return 0;
    }
    case 'call':
      return (await import('./call-command.js')).callCommand(rest);
    case 'serve':
      return (await import('./daemon/serve-command.js')).serveCommand(rest);
    case 'daemon':
      return (await import('./daemon/daemon-command.js')).daemonCommand(rest);
    case 'tools':
      return (await import('./tools-command.js')).toolsCommand(rest);
    case 'cup':
      return (await import('./cup-command.js')).cupCommand(rest);
    case 'desktop':
      return (await import('./desktop-command.js')).desktopCommand(rest);
    case '--version':
    case 'version':
      process.stdout.write(`${packageVersion}\n`);
      return 0;
    case undefined:
      // Bad usage: the usage goes where errors go, so a script's stdout gets nothing it could take for output.
      process.stderr.write(usage);
      return 2;
    case '--help':
    case '-h':
    case 'help': {
      const [topic, ...more] = rest;
      if (topic === undefined) process.stdout.write(usage);
      else if (commands.includes(topic) && topic !== 'help') await printHelp(topic, more);
      else throw unknownWord('command', topic, commands, 'cup-driver --help');
      return 0;
    }
    default:
      throw unknownWord('command', command, commands, 'cup-driver --help');
  }
}

// A reader that stops early (`cup-driver call ... | head`) closes the pipe: that ends the output, not in a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

// A server in the foreground whose log reader went away (the process that started it died) loses its log
// lines; without this each failed write is an uncaught error, and a daemon logging that error spins on it.
process.stderr.on('error', () => {});

run(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  // Every failure is one line on stderr; the stack trace is for CUP_DRIVER_DEBUG=1, after that line.
  (error: unknown) => {
    process.stderr.write(`cup-driver: ${error instanceof Error ? error.message : String(error)}\n`);
    if (debugEnabled() && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
