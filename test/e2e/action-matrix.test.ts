import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matrixTable, rowAgrees, runActionMatrix } from '../helpers/action-matrix.js';

test('action matrix: every action x addressing x delivery x toolkit has its expected effect as the oracle sees it, or is refused with an escalation and nothing changed', async (t) => {
  const rows = await runActionMatrix();
  t.diagnostic(`\n${matrixTable(rows)}`);
  assert.ok(rows.length >= 50, `${rows.length} rows`);
  for (const row of rows) {
    assert.ok(
      !(row.effect === 'confirmed' && row.oracle !== 'expected'),
      `${row.toolkit} ${row.action} ${row.delivery}: reported confirmed while the oracle saw ${row.oracle ?? 'nothing'} instead of "${row.expectedEffect}" (${row.oracleNote ?? row.error})`,
    );
  }
  const disagreeing = rows.filter((row) => !rowAgrees(row));
  assert.deepEqual(disagreeing, [], matrixTable(disagreeing));
});
