// The conformance checks as node tests: one test per corpus app of a toolkit family, on one private desktop,
// each asserting full coverage and no violation (or, for an app without accessibility, an honest degraded
// result with a screenshot). `npm run conformance` runs the same checks and prints the table.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import { TestDesktop } from '../helpers/desktop.js';
import { testContext } from '../helpers/tools.js';
import type { Violation } from './checks.js';
import { corpus, type Family } from './corpus.js';
import { checkApp, passes, violationsByRule, type AppReport } from './run-app.js';

/** A violation in one line: the rule, the oracle's node and what we showed or why it is missing. */
function describeViolation(violation: Violation): string {
  const oracle = violation.oracle ? `${violation.oracle.role} "${violation.oracle.name.slice(0, 40)}" at ${JSON.stringify(violation.oracle.extents)}` : '';
  const ours = violation.ours ? `ours: e${violation.ours.index} ${violation.ours.role} "${(violation.ours.name ?? '').slice(0, 40)}"` : '';
  return `${violation.rule}: ${[oracle, ours, violation.why ?? ''].filter(Boolean).join('; ')}`;
}

function failureMessage(report: AppReport): string {
  if (report.error) return `${report.app}: ${report.error}`;
  if (report.degradedHonest !== undefined) return `${report.app}: expected a degraded result with a reason and a screenshot, got ${JSON.stringify(report.ours)}`;
  const counts = Object.entries(violationsByRule(report)).filter(([, count]) => count > 0);
  const examples = (report.violations ?? []).slice(0, 8).map((violation) => `  - ${describeViolation(violation)}`);
  return [
    `${report.app} (${report.toolkit}): ${report.covered}/${report.checked} oracle nodes covered; violations ${counts.map(([rule, count]) => `${rule} ${count}`).join(', ')}`,
    ...(report.ours?.degraded ? [`  our read was degraded: ${report.ours.degradedReason}`] : []),
    ...examples,
    ...((report.violations?.length ?? 0) > examples.length ? [`  ... ${report.violations!.length - examples.length} more (npm run conformance writes them all to out/conformance/${report.app}.json)`] : []),
  ].join('\n');
}

export function conformanceSuite(family: Family, title: string): void {
  describe(`conformance against pyatspi: ${title}`, () => {
    let desktop: TestDesktop;
    let context: ToolContext;

    before(async () => {
      desktop = await TestDesktop.start();
      context = testContext();
    });

    after(async () => {
      context?.desktop.close();
      await desktop?.stop();
    });

    for (const app of corpus.filter((candidate) => candidate.family === family)) {
      const what = app.accessible ? 'every node the oracle shows is shown, with its bounds and an allowed role; clean names' : 'no accessibility: an honest degraded result with a screenshot';
      test(`${app.id} (${app.toolkit}): ${what}`, async () => {
        const report = await checkApp(desktop, context, app);
        assert.ok(passes(report), failureMessage(report));
      });
    }
  });
}
