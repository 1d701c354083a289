// Prints the CUP compact text the driver gives for a recorded screen: node dist/test/tui/compact-of.js <name>
import { toCompact } from '../../src/cup/compact.js';
import { buildStructure } from '../../src/tui/structure/index.js';
import { terminalEnvelope } from '../../src/tui/to-cup.js';
import { recordedGrid } from './helpers.js';

for (const name of process.argv.slice(2)) {
  const grid = recordedGrid(name);
  const { nodes } = buildStructure(grid, { title: name });
  process.stdout.write(`${toCompact(terminalEnvelope({ nodes, cols: grid.cols, rows: grid.rows, command: name, pid: 0 }), { windowList: [] })}\n`);
}
