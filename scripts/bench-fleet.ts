// Issue 13's fleet scenario on one machine: several virtual desktops, each with its own app and its own
// daemon serving MCP over HTTP (one driver per display, as a fleet runs them), each daemon with four client
// sessions reading and acting at once. Reports p50/p95 per tool over every call and the drivers' memory.
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientWindow } from '../src/platform/linux/windows.js';
import { TestDesktop } from '../test/helpers/desktop.js';
import { callTool, HttpServerProcess, resultText } from '../test/helpers/mcp-http.js';
import { processMemory } from './bench-http.js';
import { ms, percentile, reportedRow, type BenchRow } from './bench-report.js';

interface Seat {
  desktop: TestDesktop;
  window: ClientWindow;
  server: HttpServerProcess;
  clients: Client[];
}

async function openSeat(index: number, sessions: number): Promise<Seat> {
  const desktop = await TestDesktop.start();
  try {
    const { window } = await desktop.launchFixture('gtk3', { title: `Fleet ${index}` });
    const server = await HttpServerProcess.start(['serve', '--http', '0', '--idle-timeout', '0'], desktop.env());
    const clients: Client[] = [];
    for (let i = 0; i < sessions; i++) clients.push((await server.connect()).client);
    // The app's tree appears a moment after its window.
    const deadline = Date.now() + 20_000;
    while (((await callTool(clients[0]!, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false })).structuredContent as { degraded?: boolean }).degraded) {
      if (Date.now() > deadline) throw new Error(`Fleet ${index}: the fixture never became accessible`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { desktop, window, server, clients };
  } catch (error) {
    await desktop.stop();
    throw error;
  }
}

/** One session's turn: read the window, find the button, click it (actions on one window queue in arrival order). */
async function turn(client: Client, window: ClientWindow, times: Map<string, number[]>): Promise<void> {
  const call = async (tool: string, args: Record<string, unknown>) => {
    const started = performance.now();
    const result = await callTool(client, tool, args);
    if (result.isError) throw new Error(`${tool} failed: ${resultText(result)}`);
    times.get(tool)!.push(performance.now() - started);
    return result;
  };
  await call('get_window_state', { pid: window.pid, window_id: window.id });
  const found = await call('find_elements', { pid: window.pid, window_id: window.id, selector: 'role=button name="Increment"' });
  const token = (found.structuredContent as { matches: { element_token: string }[] }).matches[0]!.element_token;
  await call('click', { element_token: token, diff: false });
}

export async function fleetBenchRows(displays: number, sessions: number, rounds: number): Promise<BenchRow[]> {
  const seats: Seat[] = [];
  try {
    for (let i = 0; i < displays; i++) seats.push(await openSeat(i, sessions));
    const times = new Map(['get_window_state', 'find_elements', 'click'].map((tool) => [tool, [] as number[]]));
    const started = performance.now();
    await Promise.all(
      seats.flatMap((seat) =>
        seat.clients.map(async (client) => {
          for (let round = 0; round < rounds; round++) await turn(client, seat.window, times);
        }),
      ),
    );
    const wall = performance.now() - started;
    const memory = seats.map((seat) => processMemory(seat.server.child.pid!).rss);
    const rows = [...times].map(([tool, values]) =>
      reportedRow(`fleet ${displays} displays x ${sessions} sessions, ${tool} p50 / p95 (${values.length} calls)`, `${ms(percentile(values, 0.5))} / ${ms(percentile(values, 0.95))}`),
    );
    rows.push(
      reportedRow(
        `fleet ${displays} daemons: RSS each (min / max), total; wall time of ${rounds} rounds`,
        `${Math.min(...memory).toFixed(0)} / ${Math.max(...memory).toFixed(0)} MiB, ${memory.reduce((sum, value) => sum + value, 0).toFixed(0)} MiB; ${(wall / 1000).toFixed(1)} s`,
      ),
    );
    return rows;
  } finally {
    for (const seat of seats) {
      await seat.server.stop();
      await seat.desktop.stop();
    }
  }
}
