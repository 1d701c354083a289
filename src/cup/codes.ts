// The short codes of the compact format (COMPACT.md "Codes").
import type { CupAction, CupRole, CupState } from './types.js';

export const ROLE_CODES: Readonly<Record<CupRole, string>> = {
  alert: 'alrt', alertdialog: 'adlg', application: 'app', banner: 'bnr', button: 'btn', cell: 'cel',
  checkbox: 'chk', columnheader: 'colh', combobox: 'cmb', complementary: 'cmp', contentinfo: 'ci',
  dialog: 'dlg', document: 'doc', form: 'frm', generic: 'gen', grid: 'grd', group: 'grp',
  heading: 'hdg', img: 'img', link: 'lnk', list: 'lst', listitem: 'li', log: 'log', main: 'main',
  marquee: 'mrq', menu: 'mnu', menubar: 'mnub', menuitem: 'mi', menuitemcheckbox: 'mic',
  menuitemradio: 'mir', navigation: 'nav', none: 'none', option: 'opt', progressbar: 'pbar',
  radio: 'rad', region: 'rgn', row: 'row', rowheader: 'rowh', scrollbar: 'sb', search: 'srch',
  searchbox: 'sbx', separator: 'sep', slider: 'sld', spinbutton: 'spn', status: 'sts', switch: 'sw',
  tab: 'tab', table: 'tbl', tablist: 'tabs', tabpanel: 'tpnl', text: 'txt', textbox: 'tbx',
  timer: 'tmr', titlebar: 'ttlb', toolbar: 'tlbr', tooltip: 'ttp', tree: 'tre', treeitem: 'ti',
  window: 'win',
};

export const STATE_CODES: Readonly<Record<CupState, string>> = {
  busy: 'bsy', checked: 'chk', collapsed: 'col', disabled: 'dis', editable: 'edt', expanded: 'exp',
  focused: 'foc', hidden: 'hid', mixed: 'mix', modal: 'mod', multiselectable: 'msel',
  offscreen: 'off', pressed: 'prs', readonly: 'ro', required: 'req', selected: 'sel',
};

export const ACTION_CODES: Readonly<Record<CupAction, string>> = {
  click: 'clk', collapse: 'col', decrement: 'dec', dismiss: 'dsm', doubleclick: 'dbl', expand: 'exp',
  focus: 'foc', increment: 'inc', longpress: 'lp', rightclick: 'rclk', scroll: 'scr', select: 'sel',
  setvalue: 'sv', toggle: 'tog', type: 'typ',
};

// Maps rather than plain property lookups, so a hostile value such as "constructor" stays unchanged.
const roleCodes = new Map<string, string>(Object.entries(ROLE_CODES));
const stateCodes = new Map<string, string>(Object.entries(STATE_CODES));
const actionCodes = new Map<string, string>(Object.entries(ACTION_CODES));

// Envelopes from other producers may carry values outside the schema; the format writes those unchanged.
export function roleCode(role: string): string {
  return roleCodes.get(role) ?? role;
}

export function stateCode(state: string): string {
  return stateCodes.get(state) ?? state;
}

export function actionCode(action: string): string {
  return actionCodes.get(action) ?? action;
}
