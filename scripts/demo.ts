// `npm run demo`: the main job end to end. Starts the embedded virtual desktop, launches a real app
// (GNOME Calculator from Debian), connects an MCP client to `cup-driver mcp` exactly as an agent's client
// would, prints list_windows and the app window's compact CUP tree, and writes the screenshot to a file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { desktopEnvironment, startDesktop, stopDesktop } from '../src/platform/linux/desktop/virtual-desktop.js';
import { repositoryRoot } from '../test/helpers/desktop.js';
import { connectMcp } from '../test/helpers/mcp.js';

function textOf(result: CallToolResult): string {
  return result.content.filter((item) => item.type === 'text').map((item) => (item as { text: string }).text).join('\n');
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${textOf(result)}`);
  return result;
}

async function main(): Promise<void> {
  const log = (message: string) => process.stderr.write(`[demo] ${message}\n`);
  const desktop = await startDesktop({ width: 1280, height: 800 });
  log(`virtual desktop ${desktop.display} is up (Xvfb, openbox, session bus, AT-SPI bus with accessibility on)`);
  const env = { ...process.env, ...desktopEnvironment(desktop) };
  let app: ChildProcess | undefined;
  let client: Client | undefined;
  try {
    app = spawn('gnome-calculator', [], { env, stdio: 'ignore' });
    log(`launched gnome-calculator (pid ${app.pid})`);

    ({ client } = await connectMcp(env, ['mcp'], 'inherit'));
    const { tools } = await client.listTools();
    log(`MCP client connected to cup-driver mcp: ${tools.length} tools`);

    let window: { window_id: number; pid: number; title: string } | undefined;
    const deadline = Date.now() + 20_000;
    while (!window && Date.now() < deadline) {
      const listed = await call(client, 'list_windows', {});
      window = (listed.structuredContent as { windows: { window_id: number; pid: number; title: string }[] }).windows.find(
        (candidate) => candidate.pid === app!.pid,
      );
      if (!window) await sleep(200);
      else process.stdout.write(`\n$ list_windows\n${textOf(listed)}\n`);
    }
    if (!window) throw new Error('the calculator window did not appear within 20 s');

    const outDir = join(repositoryRoot, 'out');
    mkdirSync(outDir, { recursive: true });
    const screenshot = join(outDir, 'demo-calculator.png');
    let state: CallToolResult;
    for (;;) {
      state = await call(client, 'get_window_state', { pid: window.pid, window_id: window.window_id, screenshot_out_file: screenshot, overwrite: true });
      // The app registers on the accessibility bus a moment after its window maps.
      if (!(state.structuredContent as { degraded: boolean }).degraded || Date.now() > deadline) break;
      await sleep(200);
    }
    process.stdout.write(`\n$ get_window_state {"pid": ${window.pid}, "window_id": ${window.window_id}}\n${textOf(state)}\n`);
    process.stdout.write(`\nscreenshot written to ${screenshot}\n`);

    // Act: 6 × 7 = by element, in the background (accessibility actions; nothing is raised or focused).
    const elements = (state.structuredContent as { elements: { index: number; role: string; name: string }[] }).elements;
    for (const key of ['6', '×', '7', '=']) {
      const button = elements.find((element) => element.role === 'button' && element.name === key);
      if (!button) throw new Error(`the calculator has no button "${key}"`);
      const clicked = await call(client, 'click', { window_id: window.window_id, element_index: button.index });
      process.stdout.write(`\n$ click {"element_index": ${button.index}}  # "${key}"\n${textOf(clicked)}\n`);
    }
    const after = await call(client, 'get_window_state', { pid: window.pid, window_id: window.window_id, include_screenshot: false, query: '42' });
    process.stdout.write(`\n$ get_window_state {"query": "42"}\n${textOf(after)}\n`);
  } finally {
    await client?.close();
    app?.kill('SIGTERM');
    await stopDesktop(desktop.display);
    log(`stopped ${desktop.display}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
