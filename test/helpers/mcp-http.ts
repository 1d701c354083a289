import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliPath } from './desktop.js';

/** `cup-driver <args>` serving MCP over HTTP, started as users start it; stderr is kept for the assertions. */
export class HttpServerProcess {
  /** Every client connect() made; stop() closes them first. */
  private readonly clients: Client[] = [];

  private constructor(
    readonly child: ChildProcess,
    readonly url: URL,
    readonly tokenFile: string,
    private readonly stderrText: () => string,
  ) {}

  /** Starts it and waits (bounded) for the line naming the URL and the token file. */
  static async start(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<HttpServerProcess> {
    const child = spawn(process.execPath, [cliPath, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no "MCP over HTTP at" line within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
      const check = () => {
        const match = /MCP over HTTP at (http:\/\/\S+\/mcp) .*bearer token in (\S+)/.exec(stderr);
        if (match) finish(undefined, match);
      };
      const exited = (code: number | null) => finish(new Error(`cup-driver ${args.join(' ')} exited with ${code} before serving; stderr: ${stderr}`));
      function finish(error?: Error, match?: RegExpExecArray) {
        clearTimeout(timer);
        child.stderr!.off('data', check);
        child.off('exit', exited);
        if (error) {
          child.kill('SIGKILL');
          reject(error);
        } else resolve(match!);
      }
      child.stderr!.on('data', check);
      child.once('exit', exited);
    });
    return new HttpServerProcess(child, new URL(ready[1]!), ready[2]!, () => stderr);
  }

  get stderr(): string {
    return this.stderrText();
  }

  token(): string {
    return readFileSync(this.tokenFile, 'utf8').trim();
  }

  /** The official SDK client over Streamable HTTP, with the bearer token (or the headers given). */
  async connect(headers: Record<string, string> = { Authorization: `Bearer ${this.token()}` }): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(this.url, { requestInit: { headers } });
    const client = new Client({ name: 'cup-driver-http-test', version: '1.0.0' });
    await client.connect(transport);
    this.clients.push(client);
    return { client, transport };
  }

  /** Closes the clients, sends SIGTERM, returns the exit status (SIGKILL after the bound, which fails the caller's assertion on the status). */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    for (const client of this.clients) await client.close().catch(() => undefined);
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}, options: { signal?: AbortSignal; timeout?: number } = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
}

export function resultText(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
