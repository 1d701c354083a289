// Several MCP clients over Streamable HTTP on one window of one `cup-driver mcp --http` server: per-tool
// p50/p95 with one client and with four at once, and the server's memory.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientWindow } from '../src/platform/linux/windows.js';
import type { TestDesktop } from '../test/helpers/desktop.js';
import { callTool, HttpServerProcess, resultText } from '../test/helpers/mcp-http.js';
import { median, ms, percentile, printRows, reportedRow, type BenchRow } from './bench-report.js';

const clientCount = 4;

/** A process's resident memory now and at its peak in MiB, from the kernel's own account. */
export function processMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function timed(client: Client, tool: string, args: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = await callTool(client, tool, args);
  if (result.isError) throw new Error(`${tool} failed over HTTP: ${resultText(result)}`);
  return performance.now() - started;
}

export async function httpBenchRows(desktop: TestDesktop, window: ClientWindow, runs: number): Promise<BenchRow[]> {
  const server = await HttpServerProcess.start(['mcp', '--http', '0'], desktop.env());
  const clients: Client[] = [];
  try {
    for (let i = 0; i < clientCount; i++) clients.push((await server.connect()).client);
    const target = { pid: window.pid, window_id: window.id };
    const calls: [string, Record<string, unknown>][] = [
      ['get_window_state', target],
      ['find_elements', { ...target, selector: 'role=button' }],
      ['get_screen_size', {}],
    ];
    const rows: BenchRow[] = [];
    for (const [tool, args] of calls) {
      for (const client of clients) await timed(client, tool, args);
      // Rounds of one client alone, then all at once, so drift on a shared machine weighs on both alike.
      const alone: number[] = [];
      const together: number[] = [];
      for (let round = 0; round < runs; round++) {
        alone.push(await timed(clients[0]!, tool, args));
        together.push(...(await Promise.all(clients.map((client) => timed(client, tool, args)))));
      }
      const single = median(alone);
      const p95 = percentile(together, 0.95);
      const ratio = p95 / single;
      rows.push({
        what: `HTTP ${tool}: ${clientCount} clients p50 / p95 (1 client p50 / p95)`,
        ours: `${ms(median(together))} / ${ms(p95)}`,
        peer: `${ms(single)} / ${ms(percentile(alone, 0.95))}`,
        ratio: `${ratio.toFixed(2)}x`,
        target: tool === 'get_window_state' ? `p95 <= 3x 1 client p50` : 'reported',
        met: tool === 'get_window_state' ? ratio <= 3 : true,
      });
    }
    const memory = processMemory(server.child.pid!);
    rows.push(reportedRow(`HTTP server memory, ${clientCount} sessions (RSS now / peak)`, `${memory.rss.toFixed(0)} MiB / ${memory.peak.toFixed(0)} MiB`));
    return rows;
  } finally {
    await server.stop();
  }
}

// Run on its own: node dist/scripts/bench-http.js (BENCH_RUNS rounds, default 9), on a desktop of its own with
// the 200-node window `npm run bench` uses.
if (process.argv[1]?.endsWith('bench-http.js')) {
  const runs = Number(process.env.BENCH_RUNS ?? 9);
  (async () => {
    const { TestDesktop } = await import('../test/helpers/desktop.js');
    const desktop = await TestDesktop.start();
    try {
      const { window } = await desktop.launchFixture('gtk3', { title: 'Bench 200', rows: 85 });
      printRows(`cup-driver over HTTP (${runs} rounds)`, await httpBenchRows(desktop, window, runs));
    } finally {
      await desktop.stop();
    }
  })().catch((error: unknown) => {
    process.stderr.write(`bench-http: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
