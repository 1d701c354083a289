// What every benchmark section produces: rows of our figure against the peer's, measured in the same run.

export interface BenchRow {
  what: string;
  ours: string;
  peer: string;
  ratio: string;
  target: string;
  met: boolean;
}

/** A figure reported without a peer or a target. */
export function reportedRow(what: string, ours: string): BenchRow {
  return { what, ours, peer: '-', ratio: '-', target: 'reported', met: true };
}

/** The value at a fraction of the sorted values (0.5 = median, 0.95 = p95). */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

export function ms(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

export function printRows(title: string, rows: readonly BenchRow[]): void {
  const header: BenchRow = { what: 'measure', ours: 'cup-driver', peer: 'peer (same run)', ratio: 'ratio', target: 'target', met: true };
  const all = [header, ...rows];
  const width = (key: keyof BenchRow) => Math.max(...all.map((row) => String(row[key]).length));
  const line = (row: BenchRow, mark: string) =>
    `${row.what.padEnd(width('what'))} | ${row.ours.padEnd(width('ours'))} | ${row.peer.padEnd(width('peer'))} | ${row.ratio.padEnd(width('ratio'))} | ${row.target.padEnd(width('target'))} | ${mark}`;
  process.stdout.write(`${title}\n${line(header, 'met')}\n`);
  for (const row of rows) process.stdout.write(`${line(row, row.met ? 'yes' : 'NO')}\n`);
}
