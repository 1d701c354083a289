// Records the corpus screens after each scripted step, through the same tools the e2e tests use:
//   node dist/test/tui-corpus/record.js [--large] [program...]
// Each screen is test/fixtures/tui/corpus/<program>-<step>.json (with --large: every program at 200x50,
// in test/fixtures/tui/corpus-200x50/) in the recorder format of
// test/tui/record-screens.ts (program, note, and the visual frame). It also prints each screen, its
// structure as CUP compact text and the facts that do not hold on it, to see what the heuristics read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toCompact } from '../../src/cup/index.js';
import { terminalEnvelope } from '../../src/tui/to-cup.js';
import { failedFacts } from './facts.js';
import { corpus } from './programs.js';
import { corpusContext, recordingName, runProgram } from './run.js';
import { corpusFixtures, largeCorpusFixtures, structureOfScreen } from './screens.js';

const large = process.argv.includes('--large');
const wanted = process.argv.slice(2).filter((arg) => arg !== '--large');
const directory = large ? largeCorpusFixtures : corpusFixtures;
mkdirSync(directory, { recursive: true });
const chosen = corpus.filter((program) => wanted.length === 0 || wanted.includes(program.name));
const context = corpusContext(chosen);
try {
  for (const program of chosen) {
    await runProgram(context, program, async ({ step, reader, visual }) => {
      const name = recordingName(program, step);
      // Paths of the private temp directory are replaced, so recordings do not change from run to run.
      const command = [program.command, ...program.args('/tmp/work')].join(' ');
      const note = `${program.name} after step "${step.name}"${step.keys ? ` (keys ${step.keys.join(' ')})` : ''}${step.type ? ` (typed ${JSON.stringify(step.type)})` : ''}`;
      writeFileSync(join(directory, `${name}.json`), `${JSON.stringify({ program: command, note, ...visual })}\n`);
      const structure = structureOfScreen(visual, name);
      const compact = toCompact(terminalEnvelope({ nodes: structure.nodes, cols: visual.cols, rows: visual.rows, command: program.command, pid: 0 }), { windowList: [] });
      const failures = await failedFacts(step.facts, reader);
      process.stdout.write(`\n=== ${name} (${step.facts.length - failures.length}/${step.facts.length} facts)\n${visual.lines.join('\n')}\n--- structure\n${compact}\n${failures.map((failure) => `FAIL ${failure}`).join('\n')}\n`);
    }, large ? { cols: 200, rows: 50 } : undefined);
  }
} finally {
  await context.terminals.registry.stopAll();
}
