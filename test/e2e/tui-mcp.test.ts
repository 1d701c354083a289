import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { sessionMembers } from '../../src/tui/process-session.js';
import { waitUntil } from '../daemon/helpers.js';
import { connectMcp } from '../helpers/mcp.js';

async function connect(): Promise<Client> {
  return (await connectMcp({ ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-tui-mcp-config-')) })).client;
}

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = await callTool(client, name, args);
  assert.ok(!result.isError, `${name}: ${JSON.stringify(result.content)}`);
  return result;
}

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

describe('the tui_* tools through the official MCP client SDK over stdio', () => {
  let client: Client;
  const pids: number[] = [];

  before(async () => {
    client = await connect();
  });

  after(async () => {
    await client?.close();
    for (const pid of pids) await waitUntil(`session ${pid} left no processes behind`, 5000, () => sessionMembers(pid).length === 0);
  });

  test('tools/list declares every tui tool with input and output schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'tui_start', 'tui_stop', 'tui_capabilities', 'tui_snapshot', 'tui_changes_since', 'tui_query', 'tui_query_all', 'tui_count', 'tui_expect',
      'tui_last_event', 'tui_render_text', 'tui_press', 'tui_press_sequence', 'tui_type', 'tui_focus', 'tui_wait_for', 'tui_resize', 'tui_screenshot',
    ]) {
      assert.ok(names.includes(name), `${name} is listed`);
    }
    const start = tools.find((tool) => tool.name === 'tui_start')!;
    assert.deepEqual(start.inputSchema.required, ['command']);
    assert.equal(start.annotations?.readOnlyHint, false);
    assert.equal(tools.find((tool) => tool.name === 'tui_snapshot')!.annotations?.readOnlyHint, true);
  });

  test('drive bash: start, type, wait, snapshot as CUP and structured frame, screenshot, stop', async () => {
    const started = await callOk(client, 'tui_start', { command: 'bash', args: ['--norc', '--noprofile'], env: { PS1: '$ ' } });
    const pid = (started.structuredContent as { pid: number }).pid;
    pids.push(pid);
    await callOk(client, 'tui_type', { text: 'echo mcp-$((20 + 22))\n' });
    await callOk(client, 'tui_wait_for', { selector: 'role=text name=mcp-42' });
    // The SDK checks structuredContent against the declared output schema.
    const snapshot = await callOk(client, 'tui_snapshot');
    assert.match(text(snapshot), /^# CUP \d+\.\d+\.\d+ \| linux \| 80x24$/m);
    assert.match(text(snapshot), /txt "mcp-42"/);
    const frame = (snapshot.structuredContent as { frame: { source: string; nodes: { role: string }[] } }).frame;
    assert.equal(frame.source, 'screen');
    assert.equal(frame.nodes[0]!.role, 'screen');

    const shot = await callOk(client, 'tui_screenshot');
    const image = shot.content.find((item) => item.type === 'image') as { data: string; mimeType: string };
    assert.equal(image.mimeType, 'image/png');
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    assert.deepEqual([meta.width, meta.height], [(shot.structuredContent as { width: number }).width, (shot.structuredContent as { height: number }).height]);

    // Errors carry the seed's codes; the dotted tool names work as well.
    const missing = await callTool(client, 'tui_snapshot', { session: 'nobody' });
    assert.equal(missing.isError, true);
    assert.match(text(missing), /no terminal session "nobody"; call tui_start first/);
    const ambiguous = await callTool(client, 'tui.query', { selector: 'role=text' });
    assert.equal(ambiguous.isError, true);
    assert.match(text(ambiguous), /matches \d+ nodes/);
    await callOk(client, 'tui_stop');
    await waitUntil(`session ${pid} left no processes behind`, 3000, () => sessionMembers(pid).length === 0);
  });

  test('a client that disconnects without tui_stop leaves no terminal program behind', async () => {
    const second = await connect();
    const started = (await second.callTool({ name: 'tui_start', arguments: { command: 'bash', args: ['--norc'], session: 'left-open' } })) as CallToolResult;
    const pid = (started.structuredContent as { pid: number }).pid;
    await second.callTool({ name: 'tui_type', arguments: { text: 'sleep 600 &\n', session: 'left-open' } });
    // Quiet output says nothing of the fork: under load bash can be quiet for 100 ms before it has read the line.
    await waitUntil('bash and its sleep are running', 5000, () => sessionMembers(pid).length >= 2);
    await second.close();
    await waitUntil('the server stopped the terminal when its client left', 5000, () => sessionMembers(pid).length === 0);
  });
});
