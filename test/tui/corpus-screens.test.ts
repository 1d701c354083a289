// The corpus facts on recorded screens: the structure heuristics alone, no live program. The screens are
// the ones test/tui-corpus/record.ts recorded after each scripted step (test/fixtures/tui/corpus/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repositoryRoot } from '../helpers/desktop.js';
import { failedFacts } from '../tui-corpus/facts.js';
import { corpus } from '../tui-corpus/programs.js';
import { recordingName } from '../tui-corpus/run.js';
import { corpusFixtures, largeCorpusFixtures, recordedCorpusNames, recordedCorpusScreen, recordedReader } from '../tui-corpus/screens.js';

test('scripts/setup.mjs installs every corpus program\'s Debian package for the tests', () => {
  const setup = readFileSync(join(repositoryRoot, 'scripts', 'setup.mjs'), 'utf8');
  const testPackages = /const testPackages = \[([^\]]*)\]/.exec(setup)?.[1] ?? '';
  const missing = corpus.filter((program) => !testPackages.includes(`'${program.pkg}'`)).map((program) => `${program.name} (${program.pkg})`);
  assert.deepEqual(missing, []);
});

for (const [size, directory] of [['own size', corpusFixtures], ['200x50', largeCorpusFixtures]] as const) {
  test(`${size}: every corpus step has a recording and every recording a step`, () => {
    const steps = corpus.flatMap((program) => program.steps.map((step) => recordingName(program, step))).sort();
    assert.deepEqual(recordedCorpusNames(directory), steps);
  });
}

for (const program of corpus) {
  test(`${program.name}: the facts of each step hold on its recorded screens (${program.cols ?? 80}x${program.rows ?? 24} and 200x50)`, async () => {
    const failures: string[] = [];
    for (const [step, directory] of program.steps.flatMap((step) => [[step, corpusFixtures], [step, largeCorpusFixtures]] as const)) {
      const name = recordingName(program, step);
      const screen = recordedCorpusScreen(name, directory);
      for (const failure of await failedFacts(step.facts, recordedReader(screen, name))) failures.push(`${name} ${screen.cols}x${screen.rows}: ${failure}`);
    }
    assert.deepEqual(failures, [], `${program.name}: ${failures.length} fact(s) not readable`);
  });
}
