// An agent's side of a task: tool calls over one of the real paths a client uses (the MCP SDK against
// `cup-driver mcp`, the CLI through the daemon, or the in-process registry), picking elements by role and
// name from get_window_state's structured elements, and escalating to foreground only when a background
// result says so. Every call and its outcome is logged, so a failing task shows what the agent did.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../../src/tools/context.js';
import { runTool } from '../../src/tools/run.js';
import { runCli, stopDaemon } from '../daemon/helpers.js';
import { connectMcp } from './mcp.js';
import { testContext, type Element } from './tools.js';

export type Transport = 'mcp' | 'cli' | 'registry';

export interface Reply {
  ok: boolean;
  text: string;
  structured: Record<string, unknown>;
}

/** The action fields of seed 001's result shape that an agent reads to decide what to do next. */
export interface ActionReply extends Reply {
  effect?: 'confirmed' | 'unverifiable' | 'suspected_noop';
  path?: string;
  escalation?: { recommended: 'px' | 'foreground'; reason: string };
}

export interface Target {
  pid: number;
  id: number;
}

export class Agent {
  /** One line per call: tool, arguments, first line of the reply. */
  readonly log: string[] = [];

  private constructor(
    readonly transport: Transport,
    private readonly send: (tool: string, args: Record<string, unknown>) => Promise<Reply>,
    private readonly shutdown: () => Promise<void>,
  ) {}

  static async start(transport: Transport, env: NodeJS.ProcessEnv): Promise<Agent> {
    if (transport === 'mcp') {
      const { client } = await connectMcp(env);
      return new Agent(transport, (tool, args) => mcpCall(client, tool, args), () => client.close());
    }
    if (transport === 'cli') {
      return new Agent(transport, (tool, args) => cliCall(env, tool, args), () => stopDaemon(env));
    }
    const context: ToolContext = testContext();
    return new Agent(
      transport,
      async (tool, args) => {
        const result = await runTool(tool, args, context);
        return { ok: result.ok, text: [result.summary, result.body ?? ''].join('\n'), structured: result.structured };
      },
      async () => {},
    );
  }

  async call(tool: string, args: Record<string, unknown> = {}): Promise<Reply> {
    const reply = await this.send(tool, args);
    // The summary and the first lines of evidence: enough to see what the driver based its verdict on.
    this.log.push(`${tool} ${JSON.stringify(args)} -> ${reply.text.split('\n').slice(0, tool === 'get_window_state' ? 1 : 4).join(' | ')}`);
    return reply;
  }

  /** The window's compact state once its tree is readable (apps register a moment after they map). */
  async state(window: Target, timeoutMs = 20_000): Promise<Element[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = await this.call('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
      assert.ok(reply.ok, reply.text);
      if (!(reply.structured.degraded as boolean)) return reply.structured.elements as Element[];
      if (Date.now() > deadline) {
        throw new Error(`window ${window.id} has no accessibility tree after ${timeoutMs} ms: ${reply.structured.degraded_reason}\n${reply.text.slice(0, 1500)}\n${this.trace()}`);
      }
      await sleep(250);
    }
  }

  /** Re-reads the window until an element of this role and name is there (menus and dialogs take a moment). */
  async waitFor(window: Target, role: string, name: string | RegExp, timeoutMs = 15_000): Promise<Element> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const element = pick(await this.state(window), role, name);
      if (element) return element;
      if (Date.now() > deadline) throw new Error(`no ${role} named ${name} in window ${window.id} after ${timeoutMs} ms\n${this.trace()}`);
      await sleep(250);
    }
  }

  /**
   * Polls list_windows for a window whose title matches (a dialog opening), of the process when pid is given
   * (apps without _NET_WM_PID, such as Tk and Motif ones, have none) and other than `except`; undefined at the deadline.
   */
  async window(
    title: RegExp,
    options: { pid?: number; except?: number; timeoutMs?: number } = {},
  ): Promise<(Target & { title: string; bounds: { w: number; h: number } }) | undefined> {
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    for (;;) {
      const reply = await this.call('list_windows', options.pid === undefined ? {} : { pid: options.pid });
      assert.ok(reply.ok, reply.text);
      const windows = reply.structured.windows as { window_id: number; pid: number; title: string; bounds: { w: number; h: number } }[];
      const found = windows.find((window) => title.test(window.title) && window.window_id !== options.except);
      if (found) return { pid: found.pid, id: found.window_id, title: found.title, bounds: found.bounds };
      if (Date.now() > deadline) return undefined;
      await sleep(250);
    }
  }

  /**
   * One action the way an agent does it: background first; when the result says nothing happened and
   * recommends foreground, the same action again in the foreground. Returns every attempt's reply.
   */
  async act(tool: string, args: Record<string, unknown>): Promise<ActionReply[]> {
    const first = actionReply(await this.call(tool, args));
    assert.ok(first.ok, `${tool} failed: ${first.text}\n${this.trace()}`);
    if (first.effect !== 'suspected_noop' || first.escalation?.recommended !== 'foreground') return [first];
    const second = actionReply(await this.call(tool, { ...args, delivery_mode: 'foreground' }));
    assert.ok(second.ok, `${tool} (foreground) failed: ${second.text}\n${this.trace()}`);
    return [first, second];
  }

  /**
   * Runs steps that read a window and act on what they read, again when an element went stale meanwhile: an app that
   * replaces its objects a moment after an action's effect was seen (LibreOffice's cells, as the cursor moves after
   * a Return) leaves an element read then stale, and the error tells an agent to read the window again.
   */
  async freshly<T>(steps: () => Promise<T>, attempts = 3): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await steps();
      } catch (error) {
        if (attempt >= attempts || !/call get_window_state again and use the new index/.test(String(error))) throw error;
        this.log.push(`(stale element: reading the window again, attempt ${attempt + 1})`);
      }
    }
  }

  trace(): string {
    return `last agent calls (${this.transport}):\n  ${this.log.slice(-40).join('\n  ')}`;
  }

  close(): Promise<void> {
    return this.shutdown();
  }
}

/** The first shown element of this role whose name matches (a string matches exactly). */
export function pick(elements: Element[], role: string, name: string | RegExp): Element | undefined {
  return elements.find((element) => element.role === role && (typeof name === 'string' ? element.name === name : name.test(element.name)));
}

/** Like pick, but a missing element fails with what was there of that role. */
export function need(elements: Element[], role: string, name: string | RegExp): Element {
  const element = pick(elements, role, name);
  if (element) return element;
  const seen = elements.filter((candidate) => candidate.role === role).map((candidate) => JSON.stringify(candidate.name));
  throw new Error(`no ${role} named ${name}; ${role}s shown: ${seen.slice(0, 40).join(', ') || 'none'}`);
}

/** How each attempt was delivered and what it did, e.g. "background/none/suspected_noop then foreground/x11_pixel_fg/confirmed". */
export function delivery(attempts: ActionReply[]): string {
  return attempts.map((attempt) => `${(attempt.structured.delivery_mode as string) ?? '?'}/${attempt.path}/${attempt.effect}`).join(' then ');
}

function actionReply(reply: Reply): ActionReply {
  const structured = reply.structured as Partial<ActionReply>;
  return { ...reply, effect: structured.effect, path: structured.path, escalation: structured.escalation };
}

async function mcpCall(client: Client, tool: string, args: Record<string, unknown>): Promise<Reply> {
  const result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
  const text = result.content.filter((item) => item.type === 'text').map((item) => (item as { text: string }).text).join('\n');
  return { ok: !result.isError, text, structured: (result.structuredContent ?? {}) as Record<string, unknown> };
}

async function cliCall(env: NodeJS.ProcessEnv, tool: string, args: Record<string, unknown>): Promise<Reply> {
  const run = await runCli(['call', tool, JSON.stringify(args), '--json'], env);
  if (!run.stdout.trim()) return { ok: false, text: `cup-driver call ${tool} exited ${run.status}: ${run.stderr}`, structured: {} };
  const output = JSON.parse(run.stdout) as { isError: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
  const text = output.content.filter((item) => item.type === 'text').map((item) => item.text ?? '').join('\n');
  return { ok: !output.isError, text, structured: output.structuredContent ?? {} };
}
