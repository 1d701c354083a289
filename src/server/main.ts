#!/usr/bin/env node
import { flagValue, parseArgs, UsageError } from './cli-args.js';
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
  cup-driver tools [--json]                      the tools and their arguments
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

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
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
    case '--help':
    case 'help':
      process.stdout.write(usage);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"; run cup-driver --help`);
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
