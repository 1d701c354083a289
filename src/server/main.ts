#!/usr/bin/env node
import { callCommand } from './call-command.js';
import { UsageError } from './cli-args.js';
import { cupCommand } from './cup-command.js';
import { desktopCommand } from './desktop-command.js';
import { serveMcpOverStdio } from './mcp-server.js';
import { createContext } from './session.js';
import { toolsCommand } from './tools-command.js';
import { packageVersion } from './version.js';

const usage = `cup-driver ${packageVersion}: see and operate desktop apps through MCP tools, speaking CUP

usage:
  cup-driver mcp                                 MCP server on stdio
  cup-driver call <tool> ['<json-args>'|-] [--json] [--image-dir DIR]
  cup-driver tools [--json]                      the tools and their arguments
  cup-driver cup compact [--detail compact|full] [--max-chars N] < envelope.json
  cup-driver cup overview < envelope.json
  cup-driver cup validate < envelope.json
  cup-driver desktop start [--display :N] [--size WxH]
  cup-driver desktop stop [--display :N]
  cup-driver desktop status [--json]

Without DISPLAY, mcp and call start (or reuse) an embedded virtual desktop.
`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'mcp': {
      if (rest.length > 0) throw new UsageError(`mcp takes no arguments, got: ${rest.join(' ')}`);
      await serveMcpOverStdio(createContext({ session: 'mcp', persistConfig: false }));
      return 0;
    }
    case 'call':
      return callCommand(rest);
    case 'tools':
      return toolsCommand(rest);
    case 'cup':
      return cupCommand(rest);
    case 'desktop':
      return desktopCommand(rest);
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

run(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`cup-driver: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`cup-driver: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
