// The corpus facts on recorded screens: the structure heuristics alone, no live program. The screens are
// the ones test/tui-corpus/record.ts recorded after each scripted step (test/fixtures/tui/corpus/).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failedFacts } from '../tui-corpus/facts.js';
import { corpus } from '../tui-corpus/programs.js';
import { recordingName } from '../tui-corpus/run.js';
import { recordedCorpusNames, recordedCorpusScreen, recordedReader } from '../tui-corpus/screens.js';

test('every corpus step has a recording and every recording a step', () => {
  const steps = corpus.flatMap((program) => program.steps.map((step) => recordingName(program, step))).sort();
  assert.deepEqual(recordedCorpusNames(), steps);
});

for (const program of corpus) {
  test(`${program.name}: the facts of each step hold on its recorded screen`, async () => {
    const failures: string[] = [];
    for (const step of program.steps) {
      const name = recordingName(program, step);
      const screen = recordedCorpusScreen(name);
      for (const failure of await failedFacts(step.facts, recordedReader(screen, name))) failures.push(`${name}: ${failure}`);
    }
    assert.deepEqual(failures, [], `${program.name}: ${failures.length} fact(s) not readable`);
  });
}
