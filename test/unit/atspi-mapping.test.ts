import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cupActionsFor } from '../../src/cup/atspi/actions.js';
import { ATSPI_ROLE_NAMES, ATSPI_STATE_NAMES } from '../../src/cup/atspi/constants.js';
import { atspiToCup } from '../../src/cup/atspi/convert.js';
import type { AtspiRawNode, RawTreeContext } from '../../src/cup/atspi/raw-node.js';
import { plainText } from '../../src/cup/atspi/names.js';
import { atspiRoleName, cupRoleFor } from '../../src/cup/atspi/roles.js';
import { decodeStateSet, encodeStateSet } from '../../src/cup/atspi/states.js';
import { CUP_ROLES, validateEnvelope, buildEnvelope, type CupNode } from '../../src/cup/index.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { compactBody } from '../cup/build.js';

const screenContext: RawTreeContext = {
  extentsOrigin: { x: 0, y: 0 },
  visibleArea: { x: 100, y: 50, w: 400, h: 300 },
  gtk4NameQuirks: false,
};

let counter = 0;
function raw(role: string, fields: Partial<AtspiRawNode> & { stateNames?: string[] } = {}): AtspiRawNode {
  const { stateNames = ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_SHOWING'], ...rest } = fields;
  return {
    bus: ':1.5',
    path: `/org/a11y/atspi/accessible/${counter++}`,
    role: ATSPI_ROLE_NAMES.indexOf(role),
    name: '',
    description: '',
    states: encodeStateSet(stateNames),
    interfaces: ['Accessible', 'Component'],
    childCount: fields.children?.length ?? 0,
    children: [],
    ...rest,
  };
}

function nodes(root: CupNode): CupNode[] {
  return [root, ...(root.children ?? []).flatMap(nodes)];
}

describe('AT-SPI numbering', () => {
  test('role and state tables match the installed libatspi enumerations (python3-gi oracle)', () => {
    const script = [
      'import gi, json',
      "gi.require_version('Atspi', '2.0')",
      'from gi.repository import Atspi',
      "roles = [Atspi.Role(n).value_nick for n in range(Atspi.Role.LAST_DEFINED)]",
      "states = [Atspi.StateType(n).value_nick for n in range(Atspi.StateType.LAST_DEFINED)]",
      'print(json.dumps([roles, states]))',
    ].join('\n');
    const [roles, states] = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8' })) as [string[], string[]];
    const asConstant = (prefix: string, nick: string) => `${prefix}_${nick.toUpperCase().replace(/-/g, '_')}`;
    assert.deepEqual(ATSPI_ROLE_NAMES.slice(0, roles.length), roles.map((nick) => asConstant('ROLE', nick)));
    assert.deepEqual(ATSPI_STATE_NAMES.slice(0, states.length), states.map((nick) => asConstant('STATE', nick)));
  });

  test('the state set decodes bit n of the two words as AtspiStateType n', () => {
    // ENABLED is bit 8 and SENSITIVE bit 24 of word 0; READ_ONLY (43) is bit 11 of word 1.
    assert.deepEqual([...decodeStateSet([(1 << 8) | (1 << 24), 1 << 11])].sort(), ['STATE_ENABLED', 'STATE_READ_ONLY', 'STATE_SENSITIVE']);
    assert.deepEqual([...decodeStateSet([1 << 12, 0])], ['STATE_FOCUSED']);
    assert.deepEqual([...decodeStateSet([0x80000000, 0])], ['STATE_MANAGES_DESCENDANTS']);
    const all = ['STATE_ACTIVE', 'STATE_SHOWING', 'STATE_INDETERMINATE', 'STATE_CHECKABLE'];
    assert.deepEqual([...decodeStateSet(encodeStateSet(all))].sort(), [...all].sort());
  });
});

describe('AT-SPI to CUP roles (built from mappings.json)', () => {
  const mappings = JSON.parse(readFileSync(join(repositoryRoot, 'schema', 'mappings.json'), 'utf8')) as {
    roles: Record<string, Record<string, string | null>>;
  };

  test('every unconditional linux mapping in mappings.json maps back to a CUP role with that mapping', () => {
    for (const [cupRole, platforms] of Object.entries(mappings.roles)) {
      if (cupRole.startsWith('$') || !platforms.linux) continue;
      for (const atspiRole of platforms.linux.split('|')) {
        if (atspiRole.endsWith('?')) continue;
        const mapped = cupRoleFor({ atspiRole, named: true, modal: false });
        assert.ok(
          mappings.roles[mapped]?.linux?.split('|').includes(atspiRole),
          `${atspiRole} → ${mapped}, whose mapping does not name ${atspiRole}`,
        );
      }
    }
  });

  test('every AT-SPI role maps to a schema role', () => {
    for (const name of ATSPI_ROLE_NAMES) {
      assert.ok((CUP_ROLES as readonly string[]).includes(cupRoleFor({ atspiRole: name, named: false, modal: false })), name);
    }
  });

  test('context-dependent roles', () => {
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_PANEL', named: true, modal: false }), 'group');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_PANEL', named: false, modal: false }), 'generic');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_LIST_ITEM', parentAtspiRole: 'ROLE_LIST_BOX', named: false, modal: false }), 'option');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_LIST_ITEM', parentAtspiRole: 'ROLE_LIST', named: false, modal: false }), 'listitem');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_MENU', parentAtspiRole: 'ROLE_MENU_BAR', named: true, modal: false }), 'menuitem');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_MENU', parentAtspiRole: 'ROLE_FRAME', named: true, modal: false }), 'menu');
    // A page's role=menu in its ARIA menu bar, beside its opener, is the menu (it read as a second menu item).
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_MENU', parentAtspiRole: 'ROLE_MENU_BAR', named: true, modal: false, xmlRole: 'menu' }), 'menu');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_ALERT', named: true, modal: true }), 'alertdialog');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_SECTION', named: false, modal: false, xmlRole: 'navigation' }), 'navigation');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_TOGGLE_BUTTON', named: true, modal: false }), 'button');
    // A web page's <table> holds data; role=grid is interactive, and so are toolkits' tables (no tag).
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_TABLE', named: true, modal: false, tag: 'table' }), 'table');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_TABLE', named: true, modal: false, tag: 'div', xmlRole: 'grid' }), 'grid');
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_TABLE', named: true, modal: false }), 'grid');
    assert.equal(atspiRoleName(9999), 'ROLE_9999');
  });
});

describe('AT-SPI to CUP actions', () => {
  const base = { interfaces: ['Accessible', 'Component', 'Action'], states: new Set<string>(), parentHasSelection: false };

  test('toolkit action names map to CUP verbs; dotted GTK4 widget actions map to nothing', () => {
    assert.deepEqual(cupActionsFor({ ...base, role: 'text', atspiRole: 'ROLE_LABEL', rawActions: ['clipboard.copy', 'menu.popup', 'link.open'] }), []);
    assert.deepEqual(cupActionsFor({ ...base, role: 'button', atspiRole: 'ROLE_PUSH_BUTTON', rawActions: ['Press', 'ShowMenu'] }), ['click', 'rightclick']);
    assert.deepEqual(cupActionsFor({ ...base, role: 'slider', atspiRole: 'ROLE_SLIDER', rawActions: ['Increase', 'Decrease'] }), ['increment', 'decrement']);
  });

  test('web engines\' action names: Blink\'s check toggles a check box but clicks a radio; Gecko\'s click ancestor clicks', () => {
    assert.deepEqual(cupActionsFor({ ...base, role: 'checkbox', atspiRole: 'ROLE_CHECK_BOX', rawActions: ['check', 'showContextMenu'] }), ['toggle', 'click']);
    assert.deepEqual(cupActionsFor({ ...base, role: 'radio', atspiRole: 'ROLE_RADIO_BUTTON', rawActions: ['check', 'showContextMenu'] }), ['click']);
    assert.deepEqual(cupActionsFor({ ...base, role: 'radio', atspiRole: 'ROLE_RADIO_BUTTON', rawActions: ['select'] }), ['select', 'click']);
    assert.deepEqual(cupActionsFor({ ...base, role: 'text', atspiRole: 'ROLE_STATIC', rawActions: ['click ancestor'] }), ['click']);
    assert.deepEqual(cupActionsFor({ ...base, role: 'link', atspiRole: 'ROLE_LINK', rawActions: ['jump'] }), ['click']);
    assert.deepEqual(cupActionsFor({ ...base, role: 'combobox', atspiRole: 'ROLE_COMBO_BOX', rawActions: ['open'] }), ['click']);
  });

  test('an entry\'s activate is not a click; editable text can be typed into and set', () => {
    const states = new Set(['STATE_EDITABLE', 'STATE_FOCUSABLE']);
    const actions = cupActionsFor({ ...base, interfaces: [...base.interfaces, 'EditableText', 'Text'], states, role: 'textbox', atspiRole: 'ROLE_TEXT', rawActions: ['activate'] });
    assert.deepEqual(actions, ['type', 'setvalue', 'focus']);
  });

  test('interfaces and states add what they make possible', () => {
    const slider = cupActionsFor({ ...base, interfaces: [...base.interfaces, 'Value'], role: 'slider', atspiRole: 'ROLE_SLIDER', rawActions: [] });
    assert.deepEqual(slider, ['setvalue', 'increment', 'decrement']);
    const check = cupActionsFor({ ...base, role: 'checkbox', atspiRole: 'ROLE_CHECK_BOX', rawActions: [] });
    assert.deepEqual(check, ['click', 'toggle']);
    const expander = cupActionsFor({ ...base, role: 'treeitem', atspiRole: 'ROLE_TREE_ITEM', rawActions: ['expand or contract'], states: new Set(['STATE_EXPANDABLE', 'STATE_EXPANDED']) });
    assert.deepEqual(expander, ['collapse', 'click']);
    // GTK3 offers "expand or contract" on leaf cells too: nothing to expand there.
    const leaf = cupActionsFor({ ...base, role: 'cell', atspiRole: 'ROLE_TABLE_CELL', rawActions: ['expand or contract', 'activate'], states: new Set() });
    assert.deepEqual(leaf, ['click']);
    const option = cupActionsFor({ ...base, role: 'option', atspiRole: 'ROLE_LIST_ITEM', rawActions: [], parentHasSelection: true, states: new Set(['STATE_SELECTABLE']) });
    assert.deepEqual(option, ['click', 'select']);
    assert.deepEqual(cupActionsFor({ ...base, role: 'group', atspiRole: 'ROLE_SCROLL_PANE', rawActions: [] }), ['scroll']);
  });
});

describe('atspiToCup', () => {
  test("a title bar on the bus is the app's own header bar: its controls read as a header bar's do (libhandy's in Seahorse had been left out, Back, Search and all)", () => {
    const back = raw('ROLE_PUSH_BUTTON', { name: 'Back', extents: { x: 110, y: 60, w: 36, h: 46 }, interfaces: ['Accessible', 'Component', 'Action'], actions: ['click'] });
    const title = raw('ROLE_LABEL', { name: 'GnuPG keys', extents: { x: 300, y: 74, w: 114, h: 17 } });
    const bar = raw('ROLE_TITLE_BAR', { extents: { x: 105, y: 60, w: 390, h: 46 }, children: [raw('ROLE_PANEL', { extents: { x: 105, y: 60, w: 390, h: 46 }, children: [back, title] })] });
    const root = atspiToCup(raw('ROLE_FRAME', { name: 'seahorse', extents: { x: 100, y: 55, w: 400, h: 290 }, children: [bar] }), screenContext).root;
    assert.deepEqual(compactBody([root]), ['[e0] win "seahorse"', '  [e3] btn "Back" 110,60 36x46 [clk]', '  [e4] txt "GnuPG keys"']);
  });

  test("a column header with a place and no Action interface (Qt 5's) shows its box for a foreground click, and says no sort its toolkit does not give; one with a click (GTK's) lists it", () => {
    const header = (interfaces: string[], actions?: string[]) => raw('ROLE_TABLE_COLUMN_HEADER', { name: 'Name', extents: { x: 120, y: 60, w: 100, h: 19 }, interfaces, ...(actions ? { actions } : {}) });
    const table = (child: AtspiRawNode) => atspiToCup(raw('ROLE_TABLE', { name: 'Files', extents: { x: 110, y: 60, w: 300, h: 100 }, children: [child] }), screenContext).root;
    const qt = table(header(['Accessible', 'Component']));
    assert.deepEqual(compactBody([qt]).slice(1), ['  [e1] colh "Name" 120,60 100x19'], 'box shown, no verb, no sort');
    assert.equal(qt.children![0]!.platform?.linux?.inputOnly, true);
    const gtk = table(header(['Accessible', 'Component', 'Action'], ['click']));
    assert.deepEqual(compactBody([gtk]).slice(1), ['  [e1] colh "Name" 120,60 100x19 [clk]']);
    assert.equal(gtk.children![0]!.platform?.linux?.inputOnly, undefined);
  });

  test("a tree's nodes that say LABEL (Java's JTree) are its items at their depth below it, a leaf not collapsed; a label beside a tree, or under a tree's other child, is text", () => {
    const shown = ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_SHOWING'];
    const node = (name: string, states: string[], children: AtspiRawNode[] = []) =>
      raw('ROLE_LABEL', { name, stateNames: [...shown, ...states], interfaces: ['Accessible', 'Component', 'Action', 'Selection'], actions: states.includes('STATE_EXPANDABLE') ? ['toggleexpand'] : [], extents: { x: 120, y: 60, w: 60, h: 18 }, children });
    const tree = raw('ROLE_TREE', {
      extents: { x: 110, y: 60, w: 300, h: 100 },
      interfaces: ['Accessible', 'Component', 'Selection'],
      children: [node('JTree', ['STATE_EXPANDABLE', 'STATE_EXPANDED'], [node('colors', ['STATE_EXPANDABLE', 'STATE_EXPANDED', 'STATE_SELECTED'], [node('blue', ['STATE_COLLAPSED'])]), node('food', ['STATE_EXPANDABLE', 'STATE_COLLAPSED'])])],
    });
    const beside = raw('ROLE_LABEL', { name: 'Status', extents: { x: 120, y: 200, w: 60, h: 18 } });
    const inPanel = raw('ROLE_PANEL', { extents: { x: 110, y: 60, w: 30, h: 30 }, children: [raw('ROLE_LABEL', { name: 'Editor', extents: { x: 110, y: 60, w: 30, h: 18 } })] });
    tree.children.push(inPanel);
    const root = atspiToCup(raw('ROLE_FRAME', { name: 'Win', extents: { x: 100, y: 50, w: 400, h: 300 }, children: [tree, beside] }), screenContext).root;
    const read = Object.fromEntries(nodes(root).filter((each) => each.name).map((each) => [each.name, `${each.role} L${each.attributes?.level ?? '-'} ${(each.states ?? []).filter((state) => state !== 'offscreen').join(',')} ${(each.actions ?? []).filter((action) => action === 'expand' || action === 'collapse').join(',')}`]));
    assert.deepEqual(read, {
      Win: 'window L-  ',
      JTree: 'treeitem L1 expanded collapse',
      colors: 'treeitem L2 selected,expanded collapse',
      blue: 'treeitem L3  ',
      food: 'treeitem L2 collapsed expand',
      Editor: 'text L-  ',
      Status: 'text L-  ',
    });
  });

  test("a page's list item reads without the list marker Gecko names it with: a bullet, or a number that is its place; a name the page gave, Blink's, or another number is kept", () => {
    // Gecko's attributes of a <li role=option> as pyatspi read them (fixture sortable.html); Blink's say name-from.
    const gecko = (posinset: string, more: Record<string, string> = {}) => ({ display: 'list-item', tag: 'li', 'xml-roles': 'option', posinset, setsize: '4', ...more });
    const names = ([
      ['\u2022 Atmosphere', gecko('3')],
      ['\u25E6 Heroes', gecko('2')],
      ['3. Atmosphere', gecko('3')],
      ['1. Intro', gecko('3')],
      ['\u2022 Starred', gecko('1', { 'explicit-name': 'true' })],
      ['\u2022 Starred', gecko('1', { 'name-from': 'contents' })],
      ['\u2022 Note', { tag: 'div', display: 'block' }],
    ] as const).map(([name, attributes]) => {
      const list = raw('ROLE_LIST_BOX', { name: 'Songs', interfaces: ['Accessible', 'Component', 'Selection'], extents: { x: 110, y: 60, w: 300, h: 100 }, children: [raw('ROLE_LIST_ITEM', { name, attributes, extents: { x: 110, y: 60, w: 300, h: 20 } })] });
      return atspiToCup(list, screenContext).root.children![0]!.name;
    });
    assert.deepEqual(names, ['Atmosphere', 'Heroes', 'Atmosphere', '1. Intro', '\u2022 Starred', '\u2022 Starred', '\u2022 Note']);
  });

  test('a combo box naming no action is clicked on a button of its own (a GTK 4.8 drop-down, open or closed), not when its button lies beside its entry in a box', () => {
    const action = { interfaces: ['Accessible', 'Component', 'Action'], actions: [] };
    const button = () => raw('ROLE_TOGGLE_BUTTON', { interfaces: ['Accessible', 'Component', 'Action'], actions: ['click'], extents: { x: 10, y: 10, w: 100, h: 20 } });
    const entry = () => raw('ROLE_TEXT', { interfaces: ['Accessible', 'Component', 'Text', 'EditableText'], text: 'alpha', stateNames: ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_EDITABLE'], extents: { x: 10, y: 10, w: 80, h: 20 } });
    const combo = (children: AtspiRawNode[]) => atspiToCup(raw('ROLE_COMBO_BOX', { name: 'Fruit:', ...action, extents: { x: 10, y: 10, w: 100, h: 20 }, children }), screenContext).root;
    assert.ok(combo([button()]).actions?.includes('click'), 'closed drop-down');
    assert.ok(combo([button(), entry(), raw('ROLE_SCROLL_PANE')]).actions?.includes('click'), 'open drop-down with its search field');
    assert.ok(!combo([raw('ROLE_PANEL', { children: [entry(), button()] })]).actions?.includes('click'), 'combo box with an entry');
  });

  test('ids are assigned in pre-order and each id resolves to the object it was read from', () => {
    const root = raw('ROLE_FRAME', { name: 'Win', extents: { x: 100, y: 50, w: 400, h: 300 } });
    const panel = raw('ROLE_PANEL');
    const button = raw('ROLE_PUSH_BUTTON', { name: 'OK', actions: ['click'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 120, y: 60, w: 80, h: 30 } });
    const label = raw('ROLE_LABEL', { name: 'Hello', extents: { x: 120, y: 100, w: 80, h: 20 } });
    panel.children = [button];
    root.children = [panel, label];
    const converted = atspiToCup(root, screenContext);
    assert.deepEqual(nodes(converted.root).map((node) => `${node.id}:${node.role}:${node.name}`), ['e0:window:Win', 'e1:generic:', 'e2:button:OK', 'e3:text:Hello']);
    assert.deepEqual(converted.sources.map((source) => source.path), [root.path, panel.path, button.path, label.path]);
    assert.equal(converted.nodeCount, 4);
    const envelope = buildEnvelope({ platform: 'linux', screen: { w: 1280, h: 800 }, tree: [converted.root] });
    assert.deepEqual(validateEnvelope(envelope).errors, []);
    assert.equal(converted.root.children![0]!.children![0]!.platform?.linux?.atspiRole, 'ROLE_PUSH_BUTTON');
  });

  test('scrolled-away subtrees are numbered last, so a reading without them numbers every other element alike', () => {
    const build = (withScrolledAway: boolean) => {
      const heading = raw('ROLE_HEADING', { name: 'Top', extents: { x: 120, y: 60, w: 80, h: 20 } });
      const below = raw('ROLE_SECTION', { scrolledAway: 'down', extents: { x: 120, y: 900, w: 80, h: 20 } });
      below.children = [raw('ROLE_LINK', { name: 'Deep', extents: { x: 120, y: 900, w: 40, h: 20 } })];
      const after = raw('ROLE_PARAGRAPH', { name: 'Shown', extents: { x: 120, y: 90, w: 80, h: 20 } });
      const document = raw('ROLE_DOCUMENT_WEB', {
        name: 'Page',
        extents: { x: 100, y: 50, w: 400, h: 300 },
        ...(withScrolledAway ? {} : { offscreenChildren: { up: 0, down: 1, left: 0, right: 0 } }),
      });
      document.children = withScrolledAway ? [heading, below, after] : [heading, after];
      const tab = raw('ROLE_PAGE_TAB', { name: 'Tab', extents: { x: 100, y: 30, w: 80, h: 20 } });
      const root = raw('ROLE_FRAME', { name: 'Win', extents: { x: 100, y: 0, w: 400, h: 350 } });
      root.children = [document, tab];
      return atspiToCup(root, screenContext);
    };
    const whole = nodes(build(true).root).map((node) => `${node.id}:${node.name}`);
    assert.deepEqual(whole, ['e0:Win', 'e1:Page', 'e2:Top', 'e5:', 'e6:Deep', 'e3:Shown', 'e4:Tab']);
    const visible = build(false);
    assert.deepEqual(nodes(visible.root).map((node) => `${node.id}:${node.name}`), ['e0:Win', 'e1:Page', 'e2:Top', 'e3:Shown', 'e4:Tab']);
    assert.deepEqual(visible.root.children![0]!.platform?.linux?.unreadChildren, { up: 0, down: 1, left: 0, right: 0 });
    assert.deepEqual(build(true).sources.map((source) => source.index), [0, 1, 2, 3, 4, 5, 6]);
  });

  test("a closed menu's items are numbered last, so a reading that left them unread numbers every other element alike", () => {
    const trusted = { ...screenContext, showingReliable: true };
    const build = (itemsRead: boolean) => {
      const menu = raw('ROLE_MENU', { name: 'File', extents: { x: 100, y: 0, w: 40, h: 20 }, ...(itemsRead ? {} : { closedMenuItems: 2, childCount: 2 }) });
      if (itemsRead) {
        const hidden = { stateNames: ['STATE_ENABLED', 'STATE_VISIBLE'], positionUnknown: true };
        const submenu = raw('ROLE_MENU', { name: 'New', ...hidden });
        submenu.children = [raw('ROLE_MENU_ITEM', { name: 'Sheet', ...hidden })];
        menu.children = [submenu, raw('ROLE_MENU_ITEM', { name: 'Open', ...hidden })];
      }
      const bar = raw('ROLE_MENU_BAR', { extents: { x: 100, y: 0, w: 400, h: 20 } });
      bar.children = [menu, raw('ROLE_MENU', { name: 'Edit', extents: { x: 140, y: 0, w: 40, h: 20 }, childCount: 0 })];
      const root = raw('ROLE_FRAME', { name: 'Win', extents: { x: 100, y: 0, w: 400, h: 350 } });
      root.children = [bar, raw('ROLE_PUSH_BUTTON', { name: 'OK', extents: { x: 120, y: 60, w: 40, h: 20 } })];
      return atspiToCup(root, trusted);
    };
    assert.deepEqual(nodes(build(true).root).map((node) => `${node.id}:${node.name}`), ['e0:Win', 'e1:', 'e2:File', 'e5:New', 'e6:Sheet', 'e7:Open', 'e3:Edit', 'e4:OK']);
    const unread = build(false);
    assert.deepEqual(nodes(unread.root).map((node) => `${node.id}:${node.name}`), ['e0:Win', 'e1:', 'e2:File', 'e3:Edit', 'e4:OK']);
    assert.equal(unread.root.children![0]!.children![0]!.platform?.linux?.closedMenuItems, 2);
    assert.deepEqual(compactBody([build(true).root]), compactBody([unread.root]), 'the compact text is the same either way');
    // An open menu (an item showing) is numbered in place.
    const open = raw('ROLE_MENU', { name: 'File', extents: { x: 100, y: 0, w: 40, h: 20 } });
    open.children = [raw('ROLE_MENU_ITEM', { name: 'Open', extents: { x: 100, y: 20, w: 40, h: 20 } })];
    const root = raw('ROLE_FRAME', { name: 'Win', extents: { x: 100, y: 0, w: 400, h: 350 } });
    root.children = [open, raw('ROLE_PUSH_BUTTON', { name: 'OK', extents: { x: 120, y: 60, w: 40, h: 20 } })];
    assert.deepEqual(nodes(atspiToCup(root, trusted).root).map((node) => `${node.id}:${node.name}`), ['e0:Win', 'e1:File', 'e2:Open', 'e3:OK']);
  });

  test('a drawing area or canvas with nothing in it, on screen, is marked a drawn surface; one holding objects or hidden is not', () => {
    const drawn = (area: AtspiRawNode) => {
      const root = raw('ROLE_FRAME', { name: 'Win', extents: { x: 0, y: 0, w: 800, h: 600 }, children: [area] });
      return atspiToCup(root, screenContext).root.children?.[0]?.platform?.linux?.drawnSurface === true;
    };
    assert.equal(drawn(raw('ROLE_DRAWING_AREA', { extents: { x: 1, y: 87, w: 700, h: 400 } })), true);
    assert.equal(drawn(raw('ROLE_CANVAS', { extents: { x: 1, y: 87, w: 700, h: 400 } })), true);
    const holder = raw('ROLE_DRAWING_AREA', { extents: { x: 1, y: 87, w: 700, h: 400 } });
    holder.children = [raw('ROLE_PUSH_BUTTON', { name: 'Cell', extents: { x: 1, y: 87, w: 40, h: 40 } })];
    holder.childCount = 1;
    assert.equal(drawn(holder), false, 'its objects show what it holds');
    assert.equal(drawn(raw('ROLE_DRAWING_AREA', { extents: { x: 1, y: 87, w: 700, h: 400 }, stateNames: ['STATE_ENABLED', 'STATE_SENSITIVE'] })), false, 'not showing');
    assert.equal(drawn(raw('ROLE_PANEL', { extents: { x: 1, y: 87, w: 700, h: 400 } })), false, 'a panel is no drawing');
  });

  test("a focusable panel with nothing in it (Gnumeric's sheet grid) is a drawn surface; its unfocusable headers beside it are not", () => {
    // As pyatspi read Gnumeric 1.12's sheet: the tab's panel holds the grid (focusable, focused, no child), the row and
    // column headers (panels, not focusable) and the corner button's drawing area. The reading showed only the corner.
    const shown = ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_SHOWING'];
    const grid = raw('ROLE_PANEL', { extents: { x: 215, y: 298, w: 891, h: 354 }, stateNames: [...shown, 'STATE_FOCUSABLE', 'STATE_FOCUSED'] });
    const rowHeaders = raw('ROLE_PANEL', { extents: { x: 160, y: 298, w: 55, h: 354 } });
    const columnHeaders = raw('ROLE_PANEL', { extents: { x: 215, y: 277, w: 891, h: 21 } });
    const corner = raw('ROLE_DRAWING_AREA', { extents: { x: 160, y: 277, w: 55, h: 21 } });
    const sheet = raw('ROLE_PANEL', { extents: { x: 160, y: 277, w: 960, h: 392 }, children: [grid, rowHeaders, columnHeaders, corner] });
    const root = raw('ROLE_FRAME', { name: 'Book1.gnumeric - Gnumeric', extents: { x: 159, y: 87, w: 962, h: 625 }, children: [sheet] });
    const screen = { ...screenContext, visibleArea: { x: 0, y: 0, w: 1280, h: 800 } };
    const surfaces = nodes(atspiToCup(root, screen).root).filter((node) => node.platform?.linux?.drawnSurface === true);
    assert.deepEqual(surfaces.map((node) => node.bounds), [corner.extents, grid.extents]);
  });

  test('an unnamed control takes the name of its labelled-by label; its own name wins', () => {
    const unnamed = atspiToCup(raw('ROLE_ENTRY', { labelledBy: 'Entry 1', extents: { x: 120, y: 60, w: 80, h: 30 } }), screenContext);
    assert.equal(unnamed.root.name, 'Entry 1');
    const named = atspiToCup(raw('ROLE_ENTRY', { name: 'Search', labelledBy: 'Entry 1', extents: { x: 120, y: 60, w: 80, h: 30 } }), screenContext);
    assert.equal(named.root.name, 'Search');
  });

  test("a window left unnamed, or named by its type (ClocksWindow), is named by its title; a control inside is not", () => {
    const context = { ...screenContext, gtk4NameQuirks: true, windowTitle: 'Clocks' };
    const button = raw('ROLE_PUSH_BUTTON', { extents: { x: 120, y: 60, w: 80, h: 30 } });
    const typed = atspiToCup(raw('ROLE_FRAME', { name: 'ClocksWindow', children: [button], extents: { x: 100, y: 50, w: 400, h: 300 } }), context);
    assert.equal(typed.root.name, 'Clocks');
    assert.equal(typed.root.children?.[0]?.name, '', 'the title names the window alone');
    assert.equal(atspiToCup(raw('ROLE_DIALOG', { extents: { x: 100, y: 50, w: 400, h: 300 } }), context).root.name, 'Clocks');
    assert.equal(atspiToCup(raw('ROLE_FRAME', { name: 'World Clocks', extents: { x: 100, y: 50, w: 400, h: 300 } }), context).root.name, 'World Clocks', 'its own name wins');
    assert.equal(atspiToCup(raw('ROLE_PANEL', { extents: { x: 100, y: 50, w: 400, h: 300 } }), context).root.name, '', 'only a window is');
  });

  test('GTK4 window-relative extents are moved by the window content origin', () => {
    const context = { ...screenContext, extentsOrigin: { x: 300, y: 200 }, visibleArea: { x: 300, y: 200, w: 400, h: 300 } };
    const converted = atspiToCup(raw('ROLE_PUSH_BUTTON', { name: 'OK', extents: { x: 10, y: 20, w: 30, h: 40 } }), context);
    assert.deepEqual(converted.root.bounds, { x: 310, y: 220, w: 30, h: 40 });
    assert.ok(!converted.root.states!.includes('offscreen'));
  });

  test('offscreen comes from geometry, not from SHOWING (GTK4 never sets it)', () => {
    const noShowing = ['STATE_SENSITIVE', 'STATE_VISIBLE'];
    const inside = atspiToCup(raw('ROLE_PUSH_BUTTON', { stateNames: noShowing, extents: { x: 150, y: 60, w: 20, h: 20 } }), screenContext);
    assert.ok(!inside.root.states!.includes('offscreen'));
    const below = atspiToCup(raw('ROLE_PUSH_BUTTON', { extents: { x: 150, y: 350, w: 20, h: 20 } }), screenContext);
    assert.ok(below.root.states!.includes('offscreen'), 'touching the bottom edge is outside');
  });

  test("an object holding a scroll bar beside its view scrolls it (Qt's scroll area, a filler): what lies below its box is offscreen", () => {
    const bar = (box: { x: number; y: number; w: number; h: number }) => raw('ROLE_FILLER', { extents: box, children: [raw('ROLE_SCROLL_BAR', { extents: box, interfaces: ['Accessible', 'Component', 'Value'] })] });
    const check = (y: number) => raw('ROLE_CHECK_BOX', { extents: { x: 200, y, w: 14, h: 14 }, actions: ['Toggle'], interfaces: ['Accessible', 'Component', 'Action'] });
    const content = raw('ROLE_FILLER', { extents: { x: 150, y: 100, w: 300, h: 400 }, children: [check(110), check(280)] });
    const area = (children: AtspiRawNode[]) => raw('ROLE_FILLER', { extents: { x: 150, y: 100, w: 320, h: 150 }, children });
    const window = (child: AtspiRawNode) => atspiToCup(raw('ROLE_FRAME', { name: 'Settings', extents: { x: 100, y: 50, w: 400, h: 300 }, children: [child] }), screenContext);

    const scrolled = nodes(window(area([raw('ROLE_FILLER', { extents: { x: 150, y: 100, w: 306, h: 150 }, children: [content] }), bar({ x: 456, y: 100, w: 14, h: 150 })])).root);
    const [areaNode, wrapper] = [scrolled[1]!, scrolled.find((node) => node.role === 'generic' && node.children?.[0]?.role === 'scrollbar')!];
    assert.equal(areaNode.role, 'group', 'kept, as a scroll pane is');
    assert.ok(areaNode.actions!.includes('scroll'), JSON.stringify(areaNode.actions));
    assert.ok(!wrapper.actions?.includes('scroll'), 'the filler holding the bar alone does not scroll');
    const boxes = scrolled.filter((node) => node.role === 'checkbox');
    assert.deepEqual(boxes.map((node) => node.states!.includes('offscreen')), [false, true], 'the check box below the area\'s box, inside the window, is offscreen');

    // A bar beside a label in a split pane (Gnumeric's sheet tabs) is no scroll area: only plain containers are.
    const split = nodes(window(raw('ROLE_SPLIT_PANE', { extents: { x: 150, y: 100, w: 320, h: 150 }, children: [raw('ROLE_LABEL', { name: 'Sheet1', extents: { x: 150, y: 100, w: 50, h: 17 } }), bar({ x: 200, y: 100, w: 270, h: 17 }).children[0]!] })).root);
    assert.ok(!split[1]!.actions?.includes('scroll'), JSON.stringify(split[1]));
    // Without a scroll bar, the same filler is a plain container and only the window's area counts.
    const plain = nodes(window(area([raw('ROLE_FILLER', { extents: { x: 150, y: 100, w: 306, h: 150 }, children: [content] })])).root);
    assert.deepEqual(plain.filter((node) => node.role === 'checkbox').map((node) => node.states!.includes('offscreen')), [false, false]);
  });

  test('GTK3\'s -2^31 coordinate and an unknown position mean offscreen with no bounds', () => {
    const sentinel = atspiToCup(raw('ROLE_LIST_ITEM', { extents: { x: -2147483648, y: -2147483648, w: 1, h: 1 } }), screenContext);
    assert.equal(sentinel.root.bounds, undefined);
    assert.ok(sentinel.root.states!.includes('offscreen'));
    const unknown = atspiToCup(raw('ROLE_LIST_ITEM', { positionUnknown: true }), screenContext);
    assert.ok(unknown.root.states!.includes('offscreen'));
  });

  test('a negative size (GTK3 -1,-1 -1x-1 page of a notebook with hidden tabs) is an unknown place, not offscreen', () => {
    const page = raw('ROLE_PAGE_TAB', { extents: { x: -1, y: -1, w: -1, h: -1 } });
    page.children = [raw('ROLE_TEXT', { interfaces: ['Accessible', 'Component', 'Text', 'EditableText'], extents: { x: 120, y: 60, w: 300, h: 200 } })];
    const window = raw('ROLE_FRAME', { name: 'Editor', extents: { x: 100, y: 50, w: 400, h: 300 } });
    window.children = [page];
    const converted = atspiToCup(window, screenContext);
    const tab = converted.root.children![0]!;
    assert.equal(tab.bounds, undefined);
    assert.ok(!tab.states!.includes('offscreen'));
    const body = compactBody([converted.root]);
    assert.ok(body.some((line) => line.includes('tbx')), `the text area is shown:\n${body.join('\n')}`);
  });

  test('the page tabs of a notebook whose tabs are hidden are not named by their pages, the shown one or those behind it (GAIL)', () => {
    // As GAIL gives them (Pidgin's Accounts window, Sylpheed's set-up assistant): each tab 0x0, the one behind at -2^31.
    const hidden = { x: -2147483648, y: -2147483648, w: 0, h: 0 };
    const welcome = raw('ROLE_PAGE_TAB', { extents: hidden, stateNames: ['STATE_VISIBLE'] });
    welcome.children = [raw('ROLE_LABEL', { name: 'Welcome to the app! Press Add...', interfaces: ['Accessible', 'Component', 'Text'], text: 'Welcome to the app! Press Add...', extents: { ...hidden, w: 488, h: 237 }, stateNames: ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE'] })];
    const accounts = raw('ROLE_PAGE_TAB', { extents: { x: 396, y: 263, w: 0, h: 0 }, stateNames: ['STATE_VISIBLE', 'STATE_SHOWING'] });
    accounts.children = [raw('ROLE_LABEL', { name: 'No accounts yet', interfaces: ['Accessible', 'Component', 'Text'], text: 'No accounts yet', extents: { x: 396, y: 263, w: 488, h: 237 } })];
    const tabs = raw('ROLE_PAGE_TAB_LIST', { interfaces: ['Accessible', 'Component', 'Selection'], extents: { x: 396, y: 263, w: 488, h: 237 }, children: [welcome, accounts] });
    const window = raw('ROLE_DIALOG', { name: 'Accounts', extents: { x: 379, y: 227, w: 522, h: 346 }, children: [tabs] });
    const names = nodes(atspiToCup(window, screenContext).root).filter((node) => node.role === 'tab').map((node) => node.name);
    assert.deepEqual(names, ['', '']);
  });

  test('a negative size on an object not showing, in a toolkit that sets SHOWING, is drawn nowhere (Gecko\'s options of a closed <select>)', () => {
    const option = (name: string, showing: boolean) =>
      raw('ROLE_MENU_ITEM', { name, extents: { x: -1, y: -1, w: -1, h: -1 }, stateNames: ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', ...(showing ? ['STATE_SHOWING'] : [])] });
    const menu = raw('ROLE_MENU', { extents: { x: 120, y: 60, w: 140, h: 28 }, children: [option('Red', true), option('Green', false)] });
    const window = raw('ROLE_FRAME', { name: 'Page', extents: { x: 100, y: 50, w: 400, h: 300 }, children: [raw('ROLE_COMBO_BOX', { name: 'Colour', extents: { x: 120, y: 60, w: 140, h: 28 }, children: [menu] })] });
    const [red, green] = nodes(atspiToCup(window, screenContext).root).filter((node) => node.role === 'menuitem');
    assert.ok(!red!.states!.includes('offscreen'), 'the chosen option, marked showing, keeps an unknown place');
    assert.ok(green!.states!.includes('offscreen'), JSON.stringify(green));
  });

  test('sentinel, empty or offscreen extents never hide descendants that are on screen', () => {
    for (const extents of [{ x: -2147483648, y: -2147483648, w: 0, h: 0 }, { x: 120, y: 60, w: 0, h: 0 }, { x: 0, y: 0, w: 0, h: 0 }, { x: 2000, y: 2000, w: 5, h: 5 }]) {
      const holder = raw('ROLE_SCROLL_PANE', { name: 'Files', extents });
      holder.children = [raw('ROLE_PUSH_BUTTON', { name: 'Open', actions: ['click'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 120, y: 60, w: 80, h: 30 } })];
      const converted = atspiToCup(holder, screenContext);
      assert.equal(converted.root.bounds, undefined, JSON.stringify(extents));
      assert.ok(!converted.root.states!.includes('offscreen'), JSON.stringify(extents));
      assert.ok(!converted.root.children![0]!.states!.includes('offscreen'));
    }
    const row = raw('ROLE_TABLE_ROW', { extents: { x: -2147483648, y: -2147483648, w: 0, h: 0 } });
    row.children = [raw('ROLE_TABLE_CELL', { name: 'far', extents: { x: -2147483648, y: -2147483648, w: 0, h: 0 } })];
    assert.ok(atspiToCup(row, screenContext).root.states!.includes('offscreen'), 'a row scrolled out with its cells stays offscreen');
  });

  test('a menu bar drawn at no height shows none of its menus, whatever boxes they keep; one with its height shows them', () => {
    // LibreOffice (gtk3) keeps its own menu bar, 0 pixels high and SHOWING, under the GTK one it draws; its menus kept
    // boxes over the toolbar and read as a second File ... Help there.
    const window = (barHeight: number) => {
      const menu = raw('ROLE_MENU', { name: 'File', actions: ['click'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 100, y: 80, w: 35, h: 19 }, closedMenuItems: 3, childCount: 3 });
      const bar = raw('ROLE_MENU_BAR', { extents: { x: 100, y: 80, w: 400, h: barHeight }, children: [menu] });
      const toolbar = raw('ROLE_TOOL_BAR', { name: 'Standard', extents: { x: 100, y: 80, w: 400, h: 39 } });
      return atspiToCup(raw('ROLE_FRAME', { name: 'W', extents: { x: 100, y: 50, w: 400, h: 300 }, children: [bar, toolbar] }), screenContext).root;
    };
    const [bar, file] = nodes(window(0)).slice(1, 3);
    for (const node of [bar!, file!]) assert.ok(node.states!.includes('hidden') && node.states!.includes('offscreen'), JSON.stringify(node));
    assert.doesNotMatch(compactBody([window(0)]).join('\n'), /File/);
    assert.match(compactBody([window(19)]).join('\n'), /mi "File" 100,80 35x19/);
  });

  test('what does not show inside something of no size is drawn nowhere, where the toolkit reports SHOWING; what shows there, or lies out of the view, is judged as before', () => {
    // Firefox collapses its menu bar's toolbar to no size (-1 x -1: it shows on Alt) and leaves the menus VISIBLE, not
    // SHOWING, at their places over the tab strip: they read as on screen there, where a click went to a tab.
    const visibleOnly = ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE'];
    const window = (menuStates: string[], menuY = 60) => {
      const menu = raw('ROLE_MENU', { name: 'File', stateNames: menuStates, actions: ['click'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 100, y: menuY, w: 36, h: 24 } });
      const bar = raw('ROLE_MENU_BAR', { name: 'Application', stateNames: menuStates, extents: { x: 100, y: menuY, w: 358, h: 24 }, children: [menu] });
      const collapsed = raw('ROLE_TOOL_BAR', { name: 'Menu Bar', extents: { x: -1, y: -1, w: -1, h: -1 }, children: [bar] });
      const tabs = raw('ROLE_TOOL_BAR', { name: 'Browser tabs', extents: { x: 100, y: 60, w: 400, h: 44 } });
      return atspiToCup(raw('ROLE_FRAME', { name: 'W', extents: { x: 100, y: 50, w: 400, h: 300 }, children: [collapsed, tabs] }), screenContext).root;
    };
    const hidden = nodes(window(visibleOnly));
    for (const name of ['Application', 'File']) {
      const node = hidden.find((each) => each.name === name)!;
      assert.ok(node.states!.includes('hidden'), `${name}: ${JSON.stringify(node.states)}`);
      assert.equal(node.bounds, undefined, `${name} keeps no place`);
    }
    assert.doesNotMatch(compactBody([window(visibleOnly)]).join('\n'), /File/);
    // Shown (Alt pressed): SHOWING, in place. GTK3's page of a notebook with hidden tabs has no size and shows so too.
    assert.match(compactBody([window(['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_SHOWING'])]).join('\n'), /mi "File" 100,60 36x24/);
    // Out of the view, not showing: offscreen, as any object there, not hidden.
    const below = nodes(window(visibleOnly, 900)).find((each) => each.name === 'File')!;
    assert.ok(below.states!.includes('offscreen') && !below.states!.includes('hidden'), JSON.stringify(below.states));
  });

  test('names and descriptions are whitespace-normalised; the raw name is not otherwise changed', () => {
    const item = atspiToCup(raw('ROLE_MENU_ITEM', { name: '  New      ', description: ' Create\n a file ', extents: { x: 120, y: 60, w: 80, h: 30 } }), screenContext);
    assert.equal(item.root.name, 'New');
    assert.equal(item.root.description, 'Create a file');
    const labelled = atspiToCup(raw('ROLE_ENTRY', { labelledBy: ' Entry\t1 ', extents: { x: 120, y: 60, w: 80, h: 30 } }), screenContext);
    assert.equal(labelled.root.name, 'Entry 1');
  });

  test('rich-text tooltips (Qt passes HTML through) become plain text when they name a control', () => {
    const button = atspiToCup(raw('ROLE_PUSH_BUTTON', { description: "<p style='white-space:pre'>Calculate words&nbsp;(slow)<br>now</p>", actions: ['Press'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 120, y: 60, w: 24, h: 23 } }), screenContext);
    assert.equal(button.root.name, 'Calculate words (slow) now');
    assert.equal(plainText('a < b and c > d'), 'a < b and c > d', 'comparisons are not tags');
    assert.equal(plainText('<b>x</b> &amp; &#x41;&#66;'), 'x & AB');
  });

  test('a name that is a rich-text document (a Qt label written as HTML names its buddy) reads as its plain text', () => {
    const box = (name: string) => atspiToCup(raw('ROLE_CHECK_BOX', { name, actions: ['Toggle'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 120, y: 60, w: 24, h: 23 } }), screenContext).root.name;
    const qtLabel = '<html><head/><body><p>Automatic Index <a href="https://www.sqlite.org/pragma.html#pragma_automatic_index"><img src=":/icons/whatis"/></a></p></body></html>';
    assert.equal(box(qtLabel), 'Automatic Index');
    assert.equal(box('<qt>Use &amp;quotes</qt>'), 'Use &quotes');
    assert.equal(box('<b>Bold</b>'), 'Bold', 'one element from its opening tag to its closing one');
    assert.equal(box('a <b> c'), 'a <b> c', 'a tag-like word inside a name is text');
    assert.equal(box('<b>x</b> and <i>y</i>'), '<b>x</b> and <i>y</i>', 'not one element: left as it is');
  });

  test('an object neither visible nor showing has no place, in toolkits that report visibility at all', () => {
    const window = raw('ROLE_FRAME', { name: 'W', extents: { x: 100, y: 50, w: 400, h: 300 } });
    const closedMenuItem = raw('ROLE_MENU_ITEM', { name: 'Open', stateNames: ['STATE_ENABLED'], actions: ['Press'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 0, y: 23, w: 336, h: 23 } });
    window.children = [closedMenuItem];
    const item = atspiToCup(window, screenContext).root.children![0]!;
    assert.equal(item.bounds, undefined);
    assert.ok(item.states!.includes('offscreen') && item.states!.includes('hidden'));
    const silentWindow = raw('ROLE_FRAME', { name: 'W', stateNames: ['STATE_ENABLED'], extents: { x: 100, y: 50, w: 400, h: 300 } });
    silentWindow.children = [raw('ROLE_PUSH_BUTTON', { name: 'OK', stateNames: ['STATE_ENABLED'], extents: { x: 120, y: 60, w: 80, h: 30 } })];
    const button = atspiToCup(silentWindow, screenContext).root.children![0]!;
    assert.deepEqual(button.bounds, { x: 120, y: 60, w: 80, h: 30 }, 'a bridge that sets neither state anywhere is judged by geometry');
  });

  test('an editable paragraph (an office document, contenteditable) is a text box whose text is its value', () => {
    const paragraph = raw('ROLE_PARAGRAPH', {
      stateNames: ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_SHOWING', 'STATE_EDITABLE', 'STATE_FOCUSABLE'],
      interfaces: ['Accessible', 'Component', 'Text', 'EditableText'],
      text: 'Dear Ada,',
      extents: { x: 120, y: 60, w: 300, h: 19 },
    });
    const converted = atspiToCup(paragraph, screenContext).root;
    assert.equal(converted.role, 'textbox');
    assert.equal(converted.value, 'Dear Ada,');
    const readOnly = atspiToCup(raw('ROLE_PARAGRAPH', { interfaces: ['Accessible', 'Component', 'Text'], extents: { x: 120, y: 60, w: 300, h: 19 } }), screenContext).root;
    assert.equal(readOnly.role, 'text');
  });

  test('a web block is named by its own words (Gecko), unless static text children carry them (Blink)', () => {
    const output = atspiToCup(raw('ROLE_SECTION', { interfaces: ['Accessible', 'Component', 'Text'], text: 'Hello, Ada!', extents: { x: 120, y: 60, w: 300, h: 19 } }), screenContext).root;
    assert.deepEqual([output.role, output.name], ['text', 'Hello, Ada!']);
    const gecko = raw('ROLE_PARAGRAPH', { interfaces: ['Accessible', 'Component', 'Text'], text: 'Need help? \ufffc', extents: { x: 120, y: 60, w: 300, h: 19 } });
    gecko.children = [raw('ROLE_LINK', { name: 'Ask us', extents: { x: 200, y: 60, w: 40, h: 19 } })];
    // The link's words are the sentence's too, in their place (they read "Need help?" alone); a wrapper with no words of
    // its own between its objects takes none of theirs (it stays an unnamed section).
    assert.equal(atspiToCup(gecko, screenContext).root.name, 'Need help? Ask us');
    const wrapper = raw('ROLE_SECTION', { interfaces: ['Accessible', 'Component', 'Text'], text: ' \ufffc ', extents: { x: 120, y: 60, w: 300, h: 19 } });
    wrapper.children = [raw('ROLE_LINK', { name: 'Ask us', extents: { x: 200, y: 60, w: 40, h: 19 } })];
    assert.equal(atspiToCup(wrapper, screenContext).root.name, '');
    // An icon font's picture is no word: a heading's permalink drawn with U+F0C1, a link's home icon.
    const heading = raw('ROLE_HEADING', { name: 'Widgets manual \uf0c1', interfaces: ['Accessible', 'Component', 'Text'], extents: { x: 120, y: 60, w: 300, h: 19 } });
    heading.children = [raw('ROLE_LINK', { name: '\uf0c1', description: 'Permalink to this heading', extents: { x: 300, y: 60, w: 14, h: 19 } })];
    const read = atspiToCup(heading, { ...screenContext, namesTakeToolTips: new Set([heading.bus]) }).root;
    assert.deepEqual([read.name, read.children?.[0]?.name], ['Widgets manual', 'Permalink to this heading']);
    const blink = raw('ROLE_PARAGRAPH', { interfaces: ['Accessible', 'Component', 'Text'], text: 'Need help? \ufffc', extents: { x: 120, y: 60, w: 300, h: 19 } });
    blink.children = [raw('ROLE_STATIC', { name: 'Need help?', extents: { x: 120, y: 60, w: 80, h: 19 } }), raw('ROLE_LINK', { name: 'Ask us', extents: { x: 200, y: 60, w: 40, h: 19 } })];
    assert.equal(atspiToCup(blink, screenContext).root.name, '');
  });

  test('what lies inside something not drawn is not drawn, even when it claims SHOWING (a closed drop-down\'s chosen option)', () => {
    const combo = raw('ROLE_COMBO_BOX', { name: 'Shipping', extents: { x: 120, y: 60, w: 90, h: 20 } });
    const popup = raw('ROLE_MENU', { stateNames: ['STATE_ENABLED'], extents: { x: 120, y: 60, w: 90, h: 11 } });
    popup.children = [raw('ROLE_MENU_ITEM', { name: 'Standard', actions: ['select'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 120, y: 60, w: 90, h: 11 } })];
    combo.children = [popup];
    const option = atspiToCup(combo, screenContext).root.children![0]!.children![0]!;
    assert.equal(option.bounds, undefined);
    assert.ok(option.states!.includes('offscreen'));
    // The closed popup's choice is counted, not listed: a closed combo box says how many choices it holds.
    assert.deepEqual(compactBody([atspiToCup(combo, screenContext).root]), ['[e0] cmb "Shipping" 120,60 90x20 [clk]', "  # 1 more item \u2014 open the list to see, or set_value with a choice's text"]);
  });

  test('an info bar is an alert: its message and buttons are kept', () => {
    assert.equal(cupRoleFor({ atspiRole: 'ROLE_INFO_BAR', named: false, modal: false }), 'alert');
  });

  test('disabled only when neither ENABLED nor SENSITIVE is set', () => {
    const gtk4Sensitive = atspiToCup(raw('ROLE_PUSH_BUTTON', { stateNames: ['STATE_SENSITIVE', 'STATE_VISIBLE'] }), screenContext);
    assert.ok(!gtk4Sensitive.root.states!.includes('disabled'));
    const insensitive = atspiToCup(raw('ROLE_PUSH_BUTTON', { stateNames: ['STATE_VISIBLE'] }), screenContext);
    assert.ok(insensitive.root.states!.includes('disabled'));
  });

  test('focusable is not focused, and toggle buttons report pressed', () => {
    const focusable = atspiToCup(raw('ROLE_PUSH_BUTTON', { stateNames: ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_FOCUSABLE'] }), screenContext);
    assert.ok(!focusable.root.states!.includes('focused'));
    const toggle = atspiToCup(raw('ROLE_TOGGLE_BUTTON', { stateNames: ['STATE_ENABLED', 'STATE_VISIBLE', 'STATE_CHECKED'] }), screenContext);
    assert.deepEqual(toggle.root.states, ['pressed']);
    const check = atspiToCup(raw('ROLE_CHECK_BOX', { stateNames: ['STATE_ENABLED', 'STATE_VISIBLE', 'STATE_CHECKED', 'STATE_FOCUSED'] }), screenContext);
    assert.deepEqual(check.root.states, ['focused', 'checked']);
  });

  test('GTK4 type names are not names; names come from content for roles that allow it, skipping unrendered content', () => {
    const gtk4 = { ...screenContext, gtk4NameQuirks: true };
    const hidden = raw('ROLE_LABEL', { name: '(None)', extents: { x: 150, y: 60, w: 0, h: 0 } });
    const shown = raw('ROLE_LABEL', { name: 'Red', extents: { x: 150, y: 60, w: 30, h: 20 } });
    const inner = raw('ROLE_PANEL', { name: 'GtkStackPage', children: [hidden, shown] });
    const button = raw('ROLE_PUSH_BUTTON', { name: 'GtkToggleButton', extents: { x: 150, y: 60, w: 40, h: 20 }, children: [inner] });
    const converted = atspiToCup(button, gtk4);
    assert.equal(converted.root.name, 'Red');
    assert.equal(converted.root.children![0]!.name, '');
    assert.equal(converted.root.children![0]!.role, 'generic');
    const repeated = atspiToCup(raw('ROLE_PUSH_BUTTON', { name: '4 4', extents: { x: 150, y: 60, w: 40, h: 20 }, children: [raw('ROLE_LABEL', { name: '4', extents: { x: 150, y: 60, w: 10, h: 20 } })] }), gtk4);
    assert.equal(repeated.root.name, '4', 'GTK 4.8 repeats a button label in its name');
    // GTK 4.8's names of widgets whose label has a mnemonic, as pyatspi reads them.
    const label = (name: string) => raw('ROLE_LABEL', { name, extents: { x: 150, y: 60, w: 30, h: 20 } });
    const save = atspiToCup(raw('ROLE_PUSH_BUTTON', { name: '_Save Save', extents: { x: 150, y: 60, w: 40, h: 20 }, children: [label('Save')] }), gtk4);
    assert.equal(save.root.name, 'Save', 'the label as written, then as shown');
    const saveAs = atspiToCup(raw('ROLE_PUSH_BUTTON', { name: 'Save _As Save As', extents: { x: 150, y: 60, w: 40, h: 20 }, children: [label('Save As')] }), gtk4);
    assert.equal(saveAs.root.name, 'Save As');
    const wrap = atspiToCup(raw('ROLE_CHECK_BOX', { name: '_Wrap lines', extents: { x: 150, y: 60, w: 40, h: 20 }, children: [label('Wrap lines')] }), gtk4);
    assert.equal(wrap.root.name, 'Wrap lines', 'a check box named by its label as written');
    const underscore = atspiToCup(raw('ROLE_PUSH_BUTTON', { name: 'Open my_notes.txt', extents: { x: 150, y: 60, w: 40, h: 20 }, children: [label('Open my_notes.txt')] }), gtk4);
    assert.equal(underscore.root.name, 'Open my_notes.txt', 'an underscore that is no mnemonic stays');
    const fileItem = atspiToCup(raw('ROLE_LABEL', { name: 'my_notes mynotes' }), screenContext);
    assert.equal(fileItem.root.name, 'my_notes mynotes', 'outside GTK4 nothing is taken for a mnemonic');
    const iconOnly = atspiToCup(raw('ROLE_PUSH_BUTTON', { name: 'GtkMenuButton', description: 'Primary menu' }), gtk4);
    assert.equal(iconOnly.root.name, 'Primary menu', 'the tooltip names a control with no label or content');
    assert.equal(iconOnly.root.description, 'Primary menu');
    const elsewhere = atspiToCup(raw('ROLE_PUSH_BUTTON', { name: 'PowerShell' }), screenContext);
    assert.equal(elsewhere.root.name, 'PowerShell', 'outside GTK4 such names are kept');
  });

  test('values, ranges, placeholder and orientation', () => {
    const slider = atspiToCup(
      raw('ROLE_SLIDER', { value: { current: 42.5, min: 0, max: 100 }, stateNames: ['STATE_ENABLED', 'STATE_VISIBLE', 'STATE_HORIZONTAL'], interfaces: ['Accessible', 'Component', 'Value'] }),
      screenContext,
    );
    assert.equal(slider.root.value, '42.5');
    assert.deepEqual(slider.root.attributes, { orientation: 'horizontal', valueMin: 0, valueMax: 100, valueNow: 42.5 });
    // A browser's date field leaves an empty part at 0 against its range: no value, the range kept.
    const month = atspiToCup(raw('ROLE_SPIN_BUTTON', { name: 'Month', value: { current: 0, min: 1, max: 12 }, interfaces: ['Accessible', 'Component', 'Value'] }), screenContext);
    assert.equal(month.root.value, undefined);
    assert.deepEqual(month.root.attributes, { valueMin: 1, valueMax: 12 });
    // Blink's empty minutes part reports 0 inside its range 0..59; its value text, the bare "0" narrower than its
    // placeholder "--", says it is empty, where a part holding 0 writes "00".
    const minutes = (written: string) => atspiToCup(raw('ROLE_SPIN_BUTTON', { name: 'Minutes', value: { current: 0, min: 0, max: 59 }, attributes: { placeholder: '--', valuetext: written }, interfaces: ['Accessible', 'Component', 'Value'] }), screenContext).root;
    assert.deepEqual([minutes('0').value, minutes('0').attributes?.valueNow], [undefined, undefined]);
    assert.deepEqual([minutes('00').value, minutes('00').attributes?.valueNow], ['0', 0]);
    // A number field without bounds reports the range 0..0: its value stands.
    const unbounded = atspiToCup(raw('ROLE_SPIN_BUTTON', { name: 'Guests', value: { current: 2, min: 0, max: 0 }, interfaces: ['Accessible', 'Component', 'Value'] }), screenContext);
    assert.equal(unbounded.root.value, '2');
    // Gecko's date parts report 0 without a range, and show what they hold as text ("mm" when empty).
    const geckoMonth = (text: string) => atspiToCup(raw('ROLE_SPIN_BUTTON', { name: 'Month', text, value: { current: 0, min: 0, max: 0 }, interfaces: ['Accessible', 'Component', 'Text', 'Value'] }), screenContext).root;
    assert.deepEqual([geckoMonth('12').value, geckoMonth('12').attributes?.valueNow], ['12', 12]);
    assert.deepEqual([geckoMonth('mm').value, geckoMonth('mm').attributes?.valueNow], [undefined, undefined]);
    // Qt's date and time edits report 0 of 0..0 too, and show a whole date or time: that text is their value, with no
    // range (Kid3's and KeePassXC's date fields read "(range=0..0)" and no value).
    const qtDate = (text: string) => atspiToCup(raw('ROLE_SPIN_BUTTON', { name: 'Due', text, value: { current: 0, min: 0, max: 0 }, interfaces: ['Accessible', 'Component', 'Text', 'EditableText', 'Value'] }), screenContext).root;
    assert.deepEqual([qtDate('2024-03-15').value, qtDate('2024-03-15').attributes], ['2024-03-15', undefined]);
    assert.deepEqual([qtDate('10:30 AM').value, qtDate('10:30 AM').attributes], ['10:30 AM', undefined]);
    const entry = atspiToCup(
      raw('ROLE_ENTRY', { text: 'héllo', attributes: { 'placeholder-text': 'Type' }, interfaces: ['Accessible', 'Component', 'Text', 'EditableText'], stateNames: ['STATE_ENABLED', 'STATE_VISIBLE', 'STATE_EDITABLE'] }),
      screenContext,
    );
    assert.equal(entry.root.value, 'héllo');
    assert.equal(entry.root.attributes?.placeholder, 'Type');
    assert.ok(entry.root.states!.includes('editable'));
    const readOnly = atspiToCup(raw('ROLE_ENTRY', { text: 'x', interfaces: ['Accessible', 'Component', 'Text'] }), screenContext);
    assert.ok(readOnly.root.states!.includes('readonly'));
    const combo = atspiToCup(raw('ROLE_COMBO_BOX', { name: 'Color', selectedName: 'Red' }), screenContext);
    assert.equal(combo.root.value, 'Red');
    // Gecko's <select>: no text, no Selection; its popup marks the chosen item selected.
    const popup = raw('ROLE_MENU', { children: [raw('ROLE_MENU_ITEM', { name: 'Red' }), raw('ROLE_MENU_ITEM', { name: 'Blue', stateNames: ['STATE_ENABLED', 'STATE_SELECTED'] })] });
    assert.equal(atspiToCup(raw('ROLE_COMBO_BOX', { name: 'Colour', children: [popup] }), screenContext).root.value, 'Blue');
    // GTK3's combo box has Selection: with none selected it holds nothing, though its open popup highlights an item.
    const unchosen = raw('ROLE_COMBO_BOX', { children: [popup], interfaces: ['Accessible', 'Component', 'Action', 'Selection'] });
    assert.equal(atspiToCup(unchosen, screenContext).root.value, undefined);
  });

  test('an unnamed field is named by the text beside it on its row, else just above it; a name of its own or a far text stays', () => {
    const box = { x: 0, y: 0, w: 600, h: 400 };
    const text = (name: string, x: number, y: number, w: number, h: number) => raw('ROLE_LABEL', { name, extents: { x, y, w, h } });
    const entry = (x: number, y: number, name = '') => raw('ROLE_TEXT', { name, extents: { x, y, w: 200, h: 34 }, interfaces: ['Accessible', 'Component', 'Text', 'EditableText'] });
    const form = raw('ROLE_PANEL', {
      extents: box,
      children: [
        // zenity --forms: a label left of each field, in the field's row, the rows' labels in one column.
        entry(90, 10), text('Name', 10, 10, 39, 34),
        entry(90, 50), text('Password', 10, 50, 61, 34),
        // zenity --scale: the label above the slider, which GTK3 describes by the number it draws, no tooltip.
        text('Volume', 10, 100, 276, 25), raw('ROLE_SLIDER', { description: '30', extents: { x: 10, y: 131, w: 276, h: 34 }, value: { current: 30, min: 0, max: 100 }, interfaces: ['Accessible', 'Component', 'Value'] }),
        entry(90, 200, 'Own'), text('Beside', 10, 200, 60, 34),
        text('Far above', 90, 170, 60, 10), entry(90, 250),
        // A timer's minutes after the separator between its hours and minutes (GNOME Clocks): punctuation names nothing.
        text('∶', 300, 340, 8, 34), entry(310, 340),
      ],
    });
    // Found by their boxes: the form is read in the order its rows are laid out (reading-order.ts), not as listed.
    const read = atspiToCup(form, { ...screenContext, visibleArea: box }).root.children!;
    const at = (x: number, y: number) => read.find((node) => node.role !== 'text' && node.bounds?.x === x && node.bounds.y === y)!;
    const [name, password, volume, own, far, minutes] = [at(90, 10), at(90, 50), at(10, 131), at(90, 200), at(90, 250), at(310, 340)];
    assert.deepEqual([name.name, password.name, volume.name, own.name, far.name, minutes.name], ['Name', 'Password', 'Volume', 'Own', '', '']);
    // Alone, such a slider is not named by its number either; one with a tooltip of its own is named by the tooltip.
    const slider = (description: string) =>
      atspiToCup(raw('ROLE_SLIDER', { description, value: { current: 30, min: 0, max: 100 }, interfaces: ['Accessible', 'Component', 'Value'] }), screenContext).root;
    assert.deepEqual([slider('30').name, slider('30.0').name, slider('Output volume').name], ['', '', 'Output volume']);
  });

  test('a layout\'s children are read in rows from the top, each left to right, where the toolkit lists them otherwise', () => {
    const area = { x: 0, y: 0, w: 600, h: 400 };
    const text = (name: string, x: number, y: number, w = 80, h = 17) => raw('ROLE_LABEL', { name, extents: { x, y, w, h } });
    const names = (root: CupNode) => root.children!.map((child) => child.name);
    const read = (role: string, children: AtspiRawNode[]) => atspiToCup(raw(role, { extents: area, children }), { ...screenContext, visibleArea: area }).root;
    // Eye of GNOME's image properties: a GTK3 grid lists the last added first, values before their labels.
    const grid = () => [text('985 bytes', 90, 40), text('PNG image', 90, 20), text('200 × 300', 90, 0), text('File Size', 0, 40), text('Type', 0, 20), text('Size', 0, 0)];
    assert.deepEqual(names(read('ROLE_PANEL', grid())), ['Size', '200 × 300', 'Type', 'PNG image', 'File Size', '985 bytes']);
    assert.deepEqual(names(read('ROLE_FILLER', grid())), ['Size', '200 × 300', 'Type', 'PNG image', 'File Size', '985 bytes']);
    // A field taller than its label shares its row.
    const form = read('ROLE_PANEL', [text('Below', 90, 40), text('Entry', 90, 0, 100, 34), text('Name', 0, 8)]);
    assert.deepEqual(names(form), ['Name', 'Entry', 'Below']);
    // Kept as listed: a list's items, children over one another (stacked pages); a child with no place keeps its place.
    assert.deepEqual(names(read('ROLE_LIST', grid())), ['985 bytes', 'PNG image', '200 × 300', 'File Size', 'Type', 'Size']);
    assert.deepEqual(names(read('ROLE_PANEL', [text('Back', 0, 20), text('Front', 0, 0, 80, 40)])), ['Back', 'Front']);
    assert.deepEqual(names(read('ROLE_PANEL', [text('Placed', 0, 20), raw('ROLE_LABEL', { name: 'Nowhere' }), text('Top', 0, 0)])), ['Top', 'Nowhere', 'Placed']);
  });

  test('an unnamed check box is named by the text on its row (a Qt form layout), even scrolled out of view; a heading above names none', () => {
    const box = { x: 0, y: 0, w: 400, h: 300 };
    const text = (name: string, x: number, y: number) => raw('ROLE_LABEL', { name, extents: { x, y, w: 120, h: 15 } });
    const check = (x: number, y: number) => raw('ROLE_CHECK_BOX', { extents: { x, y, w: 14, h: 14 }, actions: ['Toggle'], interfaces: ['Accessible', 'Component', 'Action'] });
    const form = raw('ROLE_FILLER', {
      extents: box,
      children: [text('Show tab indicators:', 10, 10), check(200, 10), text('Counts:', 200, 40), check(200, 60), text('Far below:', 10, 400), check(200, 400)],
    });
    const boxes = nodes(atspiToCup(form, { ...screenContext, visibleArea: box }).root).filter((node) => node.role === 'checkbox');
    assert.deepEqual(boxes.map((node) => node.name), ['Show tab indicators:', '', 'Far below:']);
    assert.ok(boxes[2]!.states!.includes('offscreen'), 'the last row lies below the view');
  });

  test('a combo box named by its value is named by the label that points at it; one named otherwise keeps its name', () => {
    const combo = (name: string, labelledBy: string | undefined, children: AtspiRawNode[] = []) =>
      atspiToCup(raw('ROLE_COMBO_BOX', { name, labelledBy, extents: { x: 150, y: 60, w: 100, h: 23 }, children }), screenContext).root;
    const choices = () => [raw('ROLE_LIST', { children: [raw('ROLE_LIST_ITEM', { name: 'Never' }), raw('ROLE_LIST_ITEM', { name: 'Always' })] })];
    const shown = combo('Never', 'Show whitespace:', choices());
    assert.deepEqual([shown.name, shown.value], ['Show whitespace:', 'Never']);
    const typed = combo('line', 'Find:', [raw('ROLE_TEXT', { text: 'line', states: encodeStateSet(['STATE_EDITABLE', 'STATE_VISIBLE', 'STATE_SHOWING']), interfaces: ['Accessible', 'Component', 'Text', 'EditableText'] })]);
    assert.equal(typed.name, 'Find:', 'named by the text its field holds (Kate\'s Find box holding "line"), it is named by the label pointing at it');
    assert.deepEqual([combo('Theme', 'Look:', choices()).name, combo('Never', undefined, choices()).name], ['Theme', 'Never']);
    // A page's <label>Colour <select> reads its choice into the label's text (Gecko: "Colour Never"), and the browser
    // names the box "Colour" already: the label's words before the choice are its name, not replaced by the label.
    const choice = (selected: boolean) => raw('ROLE_LIST_ITEM', { name: 'Never', stateNames: ['STATE_ENABLED', 'STATE_VISIBLE', 'STATE_SHOWING', ...(selected ? ['STATE_SELECTED'] : [])] });
    const wrapped = combo('Colour', 'Colour Never', [raw('ROLE_MENU', { children: [choice(true), raw('ROLE_LIST_ITEM', { name: 'Always' })] })]);
    assert.deepEqual([wrapped.name, wrapped.value], ['Colour', 'Never']);
  });

  test('an editable combo box the toolkit names by its text (Qt) is named by the label beside it, empty or not; elsewhere its own name stays', () => {
    const area = { x: 0, y: 0, w: 600, h: 400 };
    const editable = (name: string, text: string, labelledBy?: string) =>
      raw('ROLE_COMBO_BOX', {
        name,
        labelledBy,
        extents: { x: 100, y: 10, w: 200, h: 23 },
        children: [
          raw('ROLE_LIST', { extents: { x: 0, y: 0, w: 0, h: 0 } }),
          raw('ROLE_TEXT', { text, extents: { x: 102, y: 12, w: 180, h: 19 }, stateNames: ['STATE_ENABLED', 'STATE_VISIBLE', 'STATE_SHOWING', 'STATE_EDITABLE'], interfaces: ['Accessible', 'Component', 'Text', 'EditableText'] }),
        ],
      });
    const read = (combo: AtspiRawNode, namesEditableCombosByText: boolean, label = 'Username:') => {
      const form = raw('ROLE_FILLER', { extents: area, children: [raw('ROLE_LABEL', { name: label, extents: { x: 10, y: 10, w: 80, h: 23 } }), combo] });
      const found = nodes(atspiToCup(form, { ...screenContext, visibleArea: area, namesEditableCombosByText }).root).find((node) => node.role === 'combobox')!;
      return [found.name, found.value ?? '', found.children!.find((child) => child.role === 'textbox')!.name];
    };
    // KeePassXC's "Username field": Qt names it so while empty, and "alice" once it holds alice.
    assert.deepEqual(read(editable('Username field', ''), true), ['Username:', '', 'Username:']);
    assert.deepEqual(read(editable('alice', 'alice'), true), ['Username:', 'alice', 'Username:']);
    // A label pointing at it names it, not the one beside it; nor does a toolkit naming it so keep its own name then.
    assert.deepEqual(read(editable('Find field', '', 'Find:'), true, 'Search:'), ['Find:', '', 'Find:']);
    // A toolkit whose name for it is not its text (GTK3's name set by the app) keeps that name; its text alone is no name.
    assert.deepEqual(read(editable('Username field', ''), false), ['Username field', '', 'Username field']);
    assert.deepEqual(read(editable('alice', 'alice'), false), ['Username:', 'alice', 'Username:']);
  });

  test('the one field of a box the app names is named by the text right above the box, lined up with it and alone on its row; no other box or text', () => {
    const area = { x: 0, y: 0, w: 600, h: 400 };
    const text = (name: string, x: number, y: number, w: number) => raw('ROLE_LABEL', { name, extents: { x, y, w, h: 15 } });
    const entry = (x: number, y: number, w = 140) => raw('ROLE_TEXT', { extents: { x, y, w, h: 23 }, interfaces: ['Accessible', 'Component', 'Text', 'EditableText'] });
    const frame = (name: string, x: number, y: number, fields: AtspiRawNode[]) => raw('ROLE_FILLER', { name, extents: { x, y, w: 300, h: 23 }, children: fields });
    const form = raw('ROLE_FILLER', {
      extents: area,
      children: [
        // KeePassXC's unlock screen: "Enter Password:" over the widget the app names "Password field".
        text('Enter Password:', 10, 10, 300), frame('Password field', 10, 31, [entry(10, 31, 300)]),
        // A text over a box of two fields heads them both, and names neither.
        text('Range', 10, 70, 300), frame('Range fields', 10, 91, [entry(10, 91), entry(160, 91)]),
        // A text not lined up with the box.
        text('Offset', 40, 130, 270), frame('Offset field', 10, 151, [entry(10, 151, 300)]),
        // A row's label, a field beside it: the box below is not its field.
        text('Name:', 10, 200, 60), entry(80, 196), frame('Other field', 10, 225, [entry(10, 225, 300)]),
      ],
    });
    const read = nodes(atspiToCup(form, { ...screenContext, visibleArea: area }).root);
    const fieldsIn = (name: string) => read.find((node) => node.name === name && node.role === 'generic')!.children!.map((child) => child.name);
    assert.deepEqual([fieldsIn('Password field'), fieldsIn('Range fields'), fieldsIn('Offset field'), fieldsIn('Other field')], [['Enter Password:'], ['', ''], [''], ['']]);
    assert.equal(read.find((node) => node.role === 'textbox' && node.bounds?.x === 80)!.name, 'Name:');
  });

  test('a label names the field past one small button of its own name (its "?" help), which keeps its name; past a bigger button, or two, none', () => {
    const area = { x: 0, y: 0, w: 600, h: 400 };
    const text = (name: string, x: number, y: number, w: number) => raw('ROLE_LABEL', { name, extents: { x, y, w, h: 23 } });
    const entry = (x: number, y: number) => raw('ROLE_TEXT', { extents: { x, y, w: 200, h: 23 }, interfaces: ['Accessible', 'Component', 'Text', 'EditableText'] });
    const button = (name: string, x: number, y: number, side: number) =>
      raw('ROLE_PUSH_BUTTON', { name, actions: ['Press'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x, y, w: side, h: side } });
    const form = raw('ROLE_FILLER', {
      extents: area,
      children: [
        text('Key File:', 10, 10, 60), button('Key file help', 75, 14, 15), entry(95, 10),
        text('Format:', 10, 50, 60), button('Pick', 75, 50, 30), entry(110, 50),
        text('Two:', 10, 90, 40), button('Help', 55, 94, 15), button('Lock', 72, 94, 15), entry(95, 90),
      ],
    });
    const read = nodes(atspiToCup(form, { ...screenContext, visibleArea: area }).root);
    assert.deepEqual(read.filter((node) => node.role === 'textbox').map((node) => node.name), ['Key File:', '', '']);
    const help = read.find((node) => node.role === 'button' && node.bounds?.x === 75 && node.bounds.y === 14)!;
    assert.deepEqual([help.name, help.value], ['Key file help', undefined], 'the help button is no font button showing a value');
  });

  test('a browser\'s background tabs (not showing, in the shown tab\'s place) are hidden with all they hold', () => {
    const box = { x: 100, y: 60, w: 400, h: 280 };
    const shown = raw('ROLE_SCROLL_PANE', { extents: box, children: [raw('ROLE_DOCUMENT_WEB', { name: 'Shown', extents: box })] });
    const behind = raw('ROLE_SCROLL_PANE', {
      extents: box,
      stateNames: ['STATE_ENABLED', 'STATE_VISIBLE'],
      children: [raw('ROLE_DOCUMENT_WEB', { name: 'Behind', extents: box, stateNames: ['STATE_ENABLED', 'STATE_VISIBLE'], children: [raw('ROLE_PUSH_BUTTON', { name: 'Go', actions: ['press'], interfaces: ['Accessible', 'Component', 'Action'], extents: { x: 120, y: 80, w: 40, h: 20 }, stateNames: ['STATE_ENABLED', 'STATE_VISIBLE'] })] })],
    });
    const root = atspiToCup(raw('ROLE_FRAME', { name: 'Browser', extents: box, children: [shown, behind] }), screenContext).root;
    const [front, back] = root.children!;
    assert.ok(!front!.states!.includes('hidden') && !front!.children![0]!.states!.includes('hidden'));
    assert.ok(nodes(back!).every((node) => node.states!.includes('hidden') && node.states!.includes('offscreen')));
    assert.deepEqual(compactBody([root]).filter((line) => line.includes('Go')), []);
  });

  test('a web page\'s live region is named by its own words (Gecko keeps them in its Text)', () => {
    const status = atspiToCup(raw('ROLE_STATUS_BAR', { interfaces: ['Accessible', 'Component', 'Text'], text: 'Saved', extents: { x: 120, y: 60, w: 300, h: 19 } }), screenContext).root;
    assert.deepEqual([status.role, status.name], ['status', 'Saved']);
  });
});

describe('a terminal widget\'s screen as rows (terminal-rows.ts)', () => {
  const screen = 'cup$ ls\nalpha   beta\n\ncup$ ls\nalpha   beta\n   \ncup$\n';
  const terminal = () => raw('ROLE_TERMINAL', { name: 'Terminal', text: screen, interfaces: ['Accessible', 'Component', 'Text'], extents: { x: 100, y: 50, w: 400, h: 140 } });

  test('each row that holds something is a text node on its share of the height, with its spaces, blank rows left out', () => {
    const window = raw('ROLE_FRAME', { name: 'Term', extents: { x: 100, y: 50, w: 400, h: 300 }, children: [terminal()] });
    window.childCount = 1;
    const root = atspiToCup(window, screenContext).root;
    const rows = root.children![0]!.children!;
    assert.deepEqual(rows.map((row) => [row.role, row.name, row.bounds?.y, row.bounds?.h]), [
      ['text', 'cup$ ls', 50, 20],
      ['text', 'alpha   beta', 70, 20],
      ['text', 'cup$ ls', 110, 20],
      ['text', 'alpha   beta', 130, 20],
      ['text', 'cup$', 170, 20],
    ]);
    assert.ok(rows.every((row) => !row.states?.includes('disabled')), 'rows are not disabled');
  });

  test('a row keeps its identity when output scrolls it up; repeated rows are told apart; the tree read is not changed', () => {
    const before = terminal();
    const converted = atspiToCup(before, screenContext);
    const scrolled = atspiToCup({ ...before, text: `${screen.split('\n').slice(1).join('\n')}more\n` }, screenContext);
    const rows = (tree: typeof converted) =>
      tree.root.children!.map((row) => ({ name: row.name, y: row.bounds!.y, path: tree.sources.find((source) => `e${source.index}` === row.id)!.path }));
    const [was, now] = [rows(converted), rows(scrolled)];
    assert.equal(new Set(was.map((row) => row.path)).size, 5, 'five rows, five paths: the repeated ones told apart');
    // The last row moved up a row and is the same row: same path, new place.
    const [last, lastNow] = [was.find((row) => row.name === 'cup$')!, now.find((row) => row.name === 'cup$')!];
    assert.equal(lastNow.path, last.path);
    assert.equal(lastNow.y, last.y - 20);
    assert.equal(before.children.length, 0, 'the terminal read is left without rows');
  });
});

describe('reading order of layout containers', () => {
  const box = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });
  const names = (root: CupNode) => (root.children ?? []).map((child) => child.name);
  const window = (container: AtspiRawNode) => atspiToCup(raw('ROLE_FRAME', { name: 'W', extents: box(100, 50, 400, 300), children: [container] }), screenContext).root.children![0]!;

  test('a layout container listing its rows bottom first (GtkGrid) is read top to bottom, each row left to right', () => {
    // Attached top to bottom, label then field: GtkGrid lists the last attached first.
    const grid = raw('ROLE_PANEL', {
      extents: box(100, 50, 300, 80),
      children: [
        raw('ROLE_SPIN_BUTTON', { extents: box(200, 90, 100, 30) }),
        raw('ROLE_LABEL', { name: 'Download:', extents: box(110, 97, 80, 17) }),
        raw('ROLE_SPIN_BUTTON', { extents: box(200, 55, 100, 30) }),
        raw('ROLE_LABEL', { name: 'Upload:', extents: box(110, 62, 80, 17) }),
        raw('ROLE_LABEL', { name: 'Hidden', extents: box(-2147483648, -2147483648, 80, 17), stateNames: ['STATE_ENABLED'] }),
      ],
    });
    const read = window(grid);
    assert.deepEqual(names(read), ['Upload:', 'Upload:', 'Download:', 'Download:', 'Hidden']);
    assert.deepEqual(read.children!.map((child) => child.role), ['text', 'spinbutton', 'text', 'spinbutton', 'text']);
  });

  test('a list keeps its order, and so does a container whose order the boxes do not contradict', () => {
    const items = () => [raw('ROLE_LIST_ITEM', { name: 'B', extents: box(110, 90, 100, 20) }), raw('ROLE_LIST_ITEM', { name: 'A', extents: box(110, 60, 100, 20) })];
    assert.deepEqual(names(window(raw('ROLE_LIST', { extents: box(100, 50, 300, 80), children: items() }))), ['B', 'A']);
    // A sidebar beside a column: the sidebar is listed first and lies no lower than anything after it.
    const sideBySide = raw('ROLE_FILLER', {
      extents: box(100, 50, 300, 200),
      children: [raw('ROLE_PUSH_BUTTON', { name: 'Side', extents: box(100, 50, 80, 200) }), raw('ROLE_PUSH_BUTTON', { name: 'Top', extents: box(190, 50, 100, 30) }), raw('ROLE_PUSH_BUTTON', { name: 'Below', extents: box(190, 90, 100, 30) })],
    });
    assert.deepEqual(names(window(sideBySide)), ['Side', 'Top', 'Below']);
  });
});

describe('AT-SPI: places in tables and sets (CUP rowIndex, colIndex, rowCount, colCount, posInSet, setSize)', () => {
  const frame = (...children: AtspiRawNode[]) => raw('ROLE_FRAME', { name: 'Win', extents: { x: 100, y: 50, w: 400, h: 300 }, children });
  const attributesOf = (root: CupNode, name: string) => nodes(root).find((node) => node.name === name)?.attributes;

  test('a cell says its zero-based row and column, its table its size, a row the row its cells say; the compact text is unchanged', () => {
    const cell = (name: string, row: number, column: number) => raw('ROLE_TABLE_CELL', { name, cellPosition: { row, column } });
    const rows = [raw('ROLE_TABLE_ROW', { children: [cell('Apple', 1, 0), cell('3', 1, 1)] }), raw('ROLE_TABLE_ROW', { children: [cell('Banana', 2, 0), cell('12', 2, 1)] })];
    const table = raw('ROLE_TABLE', { name: 'Stock', interfaces: ['Accessible', 'Component', 'Table'], tableSize: { rows: 3, columns: 2 }, children: rows });
    const converted = atspiToCup(frame(table), screenContext).root;
    assert.deepEqual(attributesOf(converted, 'Stock'), { rowCount: 3, colCount: 2 });
    assert.deepEqual(attributesOf(converted, 'Banana'), { rowIndex: 2, colIndex: 0 });
    assert.deepEqual(attributesOf(converted, '12'), { rowIndex: 2, colIndex: 1 });
    assert.deepEqual(nodes(converted).filter((node) => node.role === 'row').map((node) => node.attributes), [{ rowIndex: 1 }, { rowIndex: 2 }]);
    assert.deepEqual(validateEnvelope(buildEnvelope({ platform: 'linux', screen: { w: 1280, h: 800 }, tree: [converted] })).errors, []);
    // COMPACT.md lists none of them: the compact text is what it was without them.
    const bare = structuredClone(converted);
    for (const node of nodes(bare)) delete node.attributes;
    assert.deepEqual(compactBody([converted]), compactBody([bare]));
  });

  test("a table's ARIA row count (a virtualised grid's aria-rowcount) is its row count; -1, unknown, is not", () => {
    const grid = (rowcount: string) => raw('ROLE_TABLE', { name: 'Big', tableSize: { rows: 20, columns: 4 }, attributes: { rowcount, 'xml-roles': 'grid' } });
    assert.deepEqual(attributesOf(atspiToCup(frame(grid('1000')), screenContext).root, 'Big'), { rowCount: 1000, colCount: 4 });
    assert.deepEqual(attributesOf(atspiToCup(frame(grid('-1')), screenContext).root, 'Big'), { rowCount: 20, colCount: 4 });
  });

  test('items of a list, tab list or menu are counted among their sibling items when they say no place; separators and hidden items are not items', () => {
    const menu = raw('ROLE_MENU', {
      name: 'Edit',
      children: [
        raw('ROLE_MENU_ITEM', { name: 'Copy' }),
        raw('ROLE_SEPARATOR'),
        raw('ROLE_MENU_ITEM', { name: 'Kept hidden', stateNames: ['STATE_ENABLED'] }),
        raw('ROLE_CHECK_MENU_ITEM', { name: 'Wrap' }),
        raw('ROLE_MENU', { name: 'More' }),
      ],
    });
    const tabs = raw('ROLE_PAGE_TAB_LIST', { children: [raw('ROLE_PAGE_TAB', { name: 'Day' }), raw('ROLE_PAGE_TAB', { name: 'Week' })] });
    const converted = atspiToCup(frame(menu, tabs), screenContext).root;
    assert.deepEqual(['Copy', 'Wrap', 'More', 'Day', 'Week'].map((name) => attributesOf(converted, name)), [
      { posInSet: 1, setSize: 3 }, { posInSet: 2, setSize: 3 }, { posInSet: 3, setSize: 3 }, { posInSet: 1, setSize: 2 }, { posInSet: 2, setSize: 2 },
    ]);
    assert.equal(attributesOf(converted, 'Kept hidden'), undefined);
  });

  test('a place the item gives (posinset, setsize) is its place; a huge list read in part counts the items left unread before it', () => {
    const given = raw('ROLE_LIST', {
      children: [raw('ROLE_LIST_ITEM', { name: 'Result 41', attributes: { posinset: '41', setsize: '500' } }), raw('ROLE_LIST_ITEM', { name: 'Result 42', attributes: { posinset: '42', setsize: '500' } })],
    });
    const huge = raw('ROLE_LIST', { childCount: 10_000, unreadChildren: { up: 120, down: 9878, left: 0, right: 0 }, children: [raw('ROLE_LIST_ITEM', { name: 'Row 121' }), raw('ROLE_LIST_ITEM', { name: 'Row 122' })] });
    const converted = atspiToCup(frame(given, huge), screenContext).root;
    assert.deepEqual(attributesOf(converted, 'Result 42'), { posInSet: 42, setSize: 500 });
    assert.deepEqual(attributesOf(converted, 'Row 122'), { posInSet: 122, setSize: 10_000 });
  });

  test("no item is counted among a list's children where the toolkit lists only some of its items (GTK 4.8's list view)", () => {
    const list = () => raw('ROLE_LIST', { children: [raw('ROLE_LIST_ITEM', { name: 'Item 1' }), raw('ROLE_LIST_ITEM', { name: 'Item 2' })] });
    const menu = () => raw('ROLE_MENU', { name: 'File', children: [raw('ROLE_MENU_ITEM', { name: 'Open' })] });
    const some = atspiToCup(frame(list(), menu()), { ...screenContext, listsSomeItemsOnly: true }).root;
    assert.equal(attributesOf(some, 'Item 2'), undefined);
    assert.deepEqual(attributesOf(some, 'Open'), { posInSet: 1, setSize: 1 }, 'a menu holds all its items');
    assert.deepEqual(attributesOf(atspiToCup(frame(list()), screenContext).root, 'Item 2'), { posInSet: 2, setSize: 2 });
  });

  test("a drop-down's posinset is its choice's place, not its own: the label holding it counts no item outside it (Blink's <select> in a <label>, as captured)", () => {
    // Chromium 14x, a <label> wrapping a <select> whose third option is chosen: pyatspi read the label with two children.
    const select = raw('ROLE_COMBO_BOX', {
      name: 'Flavour', extents: { x: 186, y: 84, w: 68, h: 20 },
      attributes: { 'haspopup': 'menu', 'posinset': '3', 'setsize': '3', 'tag': 'select', 'display': 'inline-block' },
    });
    const label = raw('ROLE_LABEL', {
      interfaces: ['Accessible', 'Action', 'Collection', 'Component', 'Document', 'Hypertext', 'Hyperlink', 'Text'], extents: { x: 120, y: 84, w: 140, h: 22 },
      attributes: { 'tag': 'label', 'display': 'inline' },
      children: [raw('ROLE_STATIC', { name: 'Flavour ', extents: { x: 120, y: 86, w: 60, h: 17 } }), select],
    });
    const converted = atspiToCup(frame(label), screenContext).root;
    const held = nodes(converted).find((node) => node.role !== 'window' && node.children?.some((child) => child.role === 'combobox'));
    assert.ok(held, JSON.stringify(converted));
    assert.equal(held.platform?.linux?.unreadChildren, undefined, 'both children were read');
    assert.doesNotMatch(compactBody([converted]).join('\n'), /more items? \u2014 scroll/);
    assert.equal(nodes(converted).find((node) => node.role === 'combobox')?.attributes?.posInSet, undefined, 'the drop-down is no item of a set');
  });

  test('no place is made up: not where children went unread uncounted, nor for radio buttons, whose set is their group', () => {
    const cut = raw('ROLE_LIST', { childCount: 5, children: [raw('ROLE_LIST_ITEM', { name: 'First' })] });
    const radios = raw('ROLE_PANEL', { children: [raw('ROLE_RADIO_BUTTON', { name: 'Small' }), raw('ROLE_RADIO_BUTTON', { name: 'Large' })] });
    const converted = atspiToCup(frame(cut, radios), screenContext).root;
    for (const name of ['First', 'Small', 'Large']) assert.equal(attributesOf(converted, name), undefined, name);
  });
});
