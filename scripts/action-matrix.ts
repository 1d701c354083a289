// `node dist/scripts/action-matrix.js`: runs the action matrix on a fresh embedded desktop and prints it as a
// Markdown table (the README keeps a copy). Exits 1 when a row disagrees with its oracle.
import { matrixTable, rowAgrees, runActionMatrix } from '../test/helpers/action-matrix.js';

const rows = await runActionMatrix((line) => process.stderr.write(`${line}\n`));
process.stdout.write(matrixTable(rows));
process.exitCode = rows.every(rowAgrees) ? 0 : 1;
