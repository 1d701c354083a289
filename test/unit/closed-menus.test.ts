import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closedMenu, isPopupOf } from '../../src/cup/atspi/closed-menus.js';
import { ATSPI_ROLE } from '../../src/cup/atspi/constants.js';
import { encodeStateSet } from '../../src/cup/atspi/states.js';

const shown = encodeStateSet(['STATE_VISIBLE', 'STATE_SHOWING']);
const visibleOnly = encodeStateSet(['STATE_VISIBLE']);
const none = encodeStateSet([]);
const menu = (states: number[], role: number = ATSPI_ROLE.MENU) => ({ role, states });

test('where SHOWING is exact (GTK3): a menu not showing is closed without asking its items; a showing one is closed when no item shows', () => {
  assert.equal(closedMenu(menu(visibleOnly), undefined, true), true);
  assert.equal(closedMenu(menu(shown), undefined, true), undefined, 'its items decide');
  assert.equal(closedMenu(menu(shown), [visibleOnly, visibleOnly], true), true, "an office suite's closed menu: its items visible, not showing");
  assert.equal(closedMenu(menu(shown), [visibleOnly, shown], true), false);
});

test('elsewhere (Qt, Java): a menu is closed when none of its items is showing or visible, or, in a menu itself showing, none is showing; a toolkit that reports neither is never judged', () => {
  const entry = menu(shown, ATSPI_ROLE.MENU_ITEM);
  assert.equal(closedMenu(entry, [none], false), true, "Qt's closed popup: neither visible nor showing");
  assert.equal(closedMenu(entry, [shown], false), false);
  assert.equal(closedMenu(menu(visibleOnly, ATSPI_ROLE.MENU_ITEM), [visibleOnly], false), false, 'visible, where SHOWING is not trusted and the menu does not show: maybe on screen');
  assert.equal(closedMenu(entry, [visibleOnly, visibleOnly], false), true, "Java's closed JMenu, showing itself: its items visible, none showing");
  assert.equal(closedMenu(entry, [visibleOnly, shown], false), false);
  assert.equal(closedMenu(menu(shown), [visibleOnly, visibleOnly], false, ATSPI_ROLE.COMBO_BOX), false, "a combo box's list: Gecko's <select> shows its menu, open or closed, never its <optgroup>s");
  assert.equal(closedMenu(menu(none), [none], false), false, 'a bridge that sets neither state anywhere');
  assert.equal(closedMenu(menu(shown), [], false), false, 'no items, nothing to hide');
});

test('only menus: other containers of hidden children are not judged', () => {
  assert.equal(closedMenu(menu(shown, ATSPI_ROLE.LIST), [visibleOnly], true), false);
  assert.equal(closedMenu(menu(visibleOnly, ATSPI_ROLE.PANEL), undefined, true), false);
});

test("a Qt menu-bar entry's popup holds its items; a GTK3 submenu opener is an item", () => {
  assert.equal(isPopupOf(ATSPI_ROLE.MENU_ITEM, ATSPI_ROLE.POPUP_MENU), true);
  assert.equal(isPopupOf(ATSPI_ROLE.MENU, ATSPI_ROLE.MENU), false);
  assert.equal(isPopupOf(ATSPI_ROLE.MENU, ATSPI_ROLE.MENU_ITEM), false);
});
