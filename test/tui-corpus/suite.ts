// One node:test test per corpus program: run it live through the tools and check every fact of every
// step. All failed facts of a program are reported together, so one unreadable fact hides no other.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sessionMembers } from '../../src/tui/process-session.js';
import { failedFacts } from './facts.js';
import { corpus } from './programs.js';
import { corpusContext, runProgram } from './run.js';

export function corpusTests(names: readonly string[]): void {
  const programs = names.map((name) => {
    const program = corpus.find((entry) => entry.name === name);
    if (!program) throw new Error(`no corpus program ${JSON.stringify(name)} (known: ${corpus.map((entry) => entry.name).join(', ')})`);
    return program;
  });
  const context = corpusContext(programs);
  after(() => context.terminals.registry.stopAll());
  for (const program of programs) {
    test(`${program.name}: ${program.steps.map((step) => step.name).join(' → ')}`, async () => {
      const failures: string[] = [];
      const { pid } = await runProgram(context, program, async ({ step, reader }) => {
        for (const failure of await failedFacts(step.facts, reader)) failures.push(`after "${step.name}": ${failure}`);
      });
      assert.deepEqual(sessionMembers(pid), [], `tui_stop left processes of ${program.name}'s session`);
      assert.deepEqual(failures, [], `${program.name}: ${failures.length} fact(s) not readable`);
    });
  }
}
