// The terminal's UI tree as a CUP envelope (platform linux), so agents read terminals and desktop apps in
// one format. Units are cells: the envelope's screen is cols x rows and bounds are in columns and rows.
import { assignIds, buildEnvelope, CUP_ROLES, type CupAction, type CupAttributes, type CupEnvelope, type CupNode, type CupRole, type CupState } from '../cup/index.js';
import { shownName, type UINode } from './ui-node.js';

/** Terminal roles that are not CUP roles, and what they are in CUP. */
const ROLE_MAP: Record<string, CupRole> = {
  screen: 'window',
  panel: 'group',
  header: 'columnheader',
  // CUP's compact format drops "status" nodes, but a terminal's status line (less's prompt, a file name)
  // is often the one line that says what state the program is in.
  status: 'text',
  label: 'text',
  input: 'textbox',
  // An editor's buffer with the cursor in it: many lines of text the keys edit.
  textarea: 'textbox',
  field: 'textbox',
  progress: 'progressbar',
  item: 'listitem',
  headerrow: 'row',
};
const CUP_ROLE_SET: ReadonlySet<string> = new Set(CUP_ROLES);

const ACTIONS: Partial<Record<CupRole, CupAction[]>> = {
  button: ['click'],
  listitem: ['select'],
  option: ['select'],
  menuitem: ['click'],
  checkbox: ['toggle'],
  radio: ['select'],
  textbox: ['type'],
  searchbox: ['type'],
  tab: ['select'],
  row: ['select'],
};

const NAME_LIMIT = 200;

export function cupRole(role: string): CupRole {
  const mapped = Object.hasOwn(ROLE_MAP, role) ? ROLE_MAP[role] : undefined;
  if (mapped) return mapped;
  return CUP_ROLE_SET.has(role) ? (role as CupRole) : 'generic';
}

function convert(node: UINode): CupNode {
  const role = cupRole(node.role);
  // The compact form shows names but not key shortcuts, so a key-hint button reads as the screen shows it ("F10 Quit").
  const name = shownName(node);
  const cup: CupNode = { id: '', role, name: name.length > NAME_LIMIT ? name.slice(0, NAME_LIMIT) : name };
  if (node.role === 'status') cup.description = 'status line';
  if (node.value !== undefined && node.value !== '') cup.value = node.value;
  if (node.bounds) cup.bounds = { ...node.bounds };
  const states: CupState[] = [];
  if (node.focused) states.push('focused');
  if (node.selected) states.push('selected');
  if (node.checked) states.push('checked');
  if (node.disabled) states.push('disabled');
  if (states.length) cup.states = states;
  // A header row names the columns; it is not one to select.
  const actions = node.role === 'headerrow' ? undefined : ACTIONS[role];
  if (actions && !node.disabled) cup.actions = [...actions];
  const attributes: CupAttributes = {};
  if (node.shortcut) attributes.keyShortcut = node.shortcut;
  // CUP's field for where a link leads; the compact form shows only the link's name, the JSON both.
  if (node.url !== undefined) attributes.url = node.url;
  const percent = role === 'progressbar' ? /(\d+(?:\.\d+)?)%/.exec(node.value ?? '') : null;
  if (percent) Object.assign(attributes, { valueNow: Number(percent[1]), valueMin: 0, valueMax: 100 });
  if (Object.keys(attributes).length) cup.attributes = attributes;
  // A heuristic node says what it was inferred from; a node without a heuristic came from the program.
  const from = node.from ?? (node.heuristic ? undefined : 'program');
  cup.platform = { linux: { tuiId: node.id, tuiRole: node.role, ...(node.heuristic ? { heuristic: node.heuristic } : {}), ...(from ? { from } : {}) } };
  if (node.children?.length) cup.children = node.children.map(convert);
  return cup;
}

export interface TerminalEnvelopeInput {
  nodes: readonly UINode[];
  cols: number;
  rows: number;
  command: string;
  pid: number;
}

export function terminalEnvelope(input: TerminalEnvelopeInput): CupEnvelope {
  return buildEnvelope({
    platform: 'linux',
    timestamp: Date.now(),
    screen: { w: input.cols, h: input.rows },
    app: { name: input.command, pid: input.pid },
    scope: 'full',
    tree: assignIds(input.nodes.map(convert)),
  });
}
