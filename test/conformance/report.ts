// The conformance reports: a Markdown table of every app, and one JSON file of violations per app.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from './checks.js';
import { passes, violationsByRule, type AppReport } from './run-app.js';

function coverage(report: AppReport): string {
  if (report.error) return 'error';
  if (report.degradedHonest !== undefined) return report.degradedHonest ? 'degraded, honest' : 'degraded, NOT reported';
  if (!report.checked) return 'n/a';
  return `${((100 * (report.covered ?? 0)) / report.checked).toFixed(1)}%`;
}

export function conformanceTable(reports: readonly AppReport[]): string {
  const header = ['app', 'toolkit', 'checked', 'covered', 'coverage', ...RULES, 'pruned by spec', 'get_window_state median ms', 'pass'];
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const report of reports) {
    const counts = violationsByRule(report);
    const cells = [
      report.app,
      report.toolkit,
      String(report.checked ?? '-'),
      String(report.covered ?? '-'),
      coverage(report),
      ...RULES.map((rule) => String(report.error ? '-' : counts[rule])),
      String(report.prunedBySpec ?? '-'),
      report.medianMs !== undefined ? report.medianMs.toFixed(0) : '-',
      passes(report) ? 'yes' : 'no',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const errors = [
    ...reports.filter((report) => report.error).map((report) => `- ${report.app}: ${report.error!.split('\n')[0]}`),
    // An app with accessibility whose tree we could not read: every check above then fails for that one reason.
    ...reports
      .filter((report) => !report.error && report.degradedHonest === undefined && report.ours?.degraded)
      .map((report) => `- ${report.app}: our get_window_state came back degraded: ${report.ours!.degradedReason}`),
  ];
  return `${lines.join('\n')}\n${errors.length > 0 ? `\nRuns that failed, and accessible apps we read degraded:\n${errors.join('\n')}\n` : ''}`;
}

/** Writes table.md and <app>.json into each directory. */
export function writeReports(reports: readonly AppReport[], directories: readonly string[]): void {
  const table = conformanceTable(reports);
  for (const directory of directories) {
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'table.md'), `# Conformance against pyatspi\n\n${table}`);
    for (const report of reports) writeFileSync(join(directory, `${report.app}.json`), `${JSON.stringify(report, null, 1)}\n`);
  }
}
