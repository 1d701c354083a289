// Several MCP clients over Streamable HTTP on one window of one `cup-driver mcp --http` server: per-tool
// p50/p95 with one client and with four at once, and the server's memory. Each client is a process of its own.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ClientWindow } from '../src/platform/linux/windows.js';
import type { TestDesktop } from '../test/helpers/desktop.js';
import { HttpServerProcess } from '../test/helpers/mcp-http.js';
import { median, ms, percentile, printRows, reportedRow, type BenchRow } from './bench-report.js';

const clientCount = 4;
const clientScript = join(dirname(fileURLToPath(import.meta.url)), 'bench-http-client.js');

/** A process's resident memory now and at its peak in MiB, from the kernel's own account. */
export function processMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** A benchmark client: a process of its own (bench-http-client.ts) that times each call it is sent. */
class ClientProcess {
  private readonly lines: AsyncIterator<string>;

  private constructor(private readonly child: ChildProcess) {
    this.lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  }

  static async start(server: HttpServerProcess): Promise<ClientProcess> {
    const child = spawn(process.execPath, [clientScript, server.url.href, server.tokenFile], { stdio: ['pipe', 'pipe', 'inherit'] });
    const client = new ClientProcess(child);
    const first = await client.reply();
    if (first !== 'ready') throw new Error(`the benchmark client did not start: ${first}`);
    return client;
  }

  private async reply(): Promise<string> {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the benchmark client did not answer within 30 s')), 30_000).unref());
    const next = await Promise.race([this.lines.next(), timeout]);
    if (next.done) throw new Error('the benchmark client exited');
    return next.value;
  }

  async timed(tool: string, args: Record<string, unknown>): Promise<number> {
    this.child.stdin!.write(`${tool} ${JSON.stringify(args)}\n`);
    const answer = await this.reply();
    if (answer.startsWith('error')) throw new Error(`${tool} failed over HTTP: ${answer}`);
    return Number(answer);
  }

  stop(): void {
    this.child.stdin!.end();
    this.child.kill();
  }
}

export async function httpBenchRows(desktop: TestDesktop, window: ClientWindow, runs: number): Promise<BenchRow[]> {
  const server = await HttpServerProcess.start(['mcp', '--http', '0'], desktop.env());
  const clients: ClientProcess[] = [];
  try {
    for (let i = 0; i < clientCount; i++) clients.push(await ClientProcess.start(server));
    const target = { pid: window.pid, window_id: window.id };
    const calls: [string, Record<string, unknown>][] = [
      ['get_window_state', target],
      ['find_elements', { ...target, selector: 'role=button' }],
      ['get_screen_size', {}],
    ];
    const rows: BenchRow[] = [];
    for (const [tool, args] of calls) {
      for (const client of clients) await client.timed(tool, args);
      // Rounds of one client alone, then all at once, so drift on a shared machine weighs on both alike.
      const alone: number[] = [];
      const together: number[] = [];
      for (let round = 0; round < runs; round++) {
        alone.push(await clients[0]!.timed(tool, args));
        together.push(...(await Promise.all(clients.map((client) => client.timed(tool, args)))));
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
    for (const client of clients) client.stop();
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
