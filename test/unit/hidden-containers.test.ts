import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ATSPI_ROLE } from '../../src/cup/atspi/constants.js';
import { hidesItsContent } from '../../src/cup/atspi/hidden-containers.js';
import { encodeStateSet } from '../../src/cup/atspi/states.js';

const visible = encodeStateSet(['STATE_VISIBLE', 'STATE_ENABLED']);
const hidden = encodeStateSet(['STATE_ENABLED']);
const none = encodeStateSet([]);
const object = (states: number[], role: number = ATSPI_ROLE.PANEL, bus = ':1.5') => ({ role, states, bus });

test('a container neither visible nor showing, in a visible parent of its own process, hides what it holds', () => {
  assert.equal(hidesItsContent(object(hidden), object(visible, ATSPI_ROLE.PAGE_TAB)), true, "a tab page behind the shown one (Qt's, Swing's)");
  assert.equal(hidesItsContent(object(visible), object(visible)), false);
  assert.equal(hidesItsContent(object(hidden), object(hidden)), false, 'inside a hidden parent: that parent decides');
  assert.equal(hidesItsContent(object(hidden), undefined), false, 'the top of a reading');
});

test('not where the states say nothing, nor menus and lists of choices, counted as closed menus', () => {
  assert.equal(hidesItsContent(object(none), object(visible)), false, "an empty state set (WebKitGTK's socket, whose page shows)");
  assert.equal(hidesItsContent(object(hidden), object(visible, ATSPI_ROLE.PANEL, ':1.9')), false, 'another process than its parent');
  assert.equal(hidesItsContent(object(hidden, ATSPI_ROLE.POPUP_MENU), object(visible, ATSPI_ROLE.MENU_ITEM)), false);
  assert.equal(hidesItsContent(object(hidden, ATSPI_ROLE.LIST), object(visible, ATSPI_ROLE.COMBO_BOX)), false);
  assert.equal(hidesItsContent(object(hidden, ATSPI_ROLE.GROUPING), object(visible, ATSPI_ROLE.MENU)), false, "a <select>'s <optgroup> in Gecko's menu of options");
});
