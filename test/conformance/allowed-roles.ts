// Which CUP roles may stand for an AT-SPI role, as the conformance checks judge it. Built from the linux
// column of mappings.json (every alternative, "?" context-dependent ones included) plus the few
// allowances below, written out here rather than taken from the driver's own role table, so the driver is
// judged against the specification and not against itself.
import mappings from '../../schema/mappings.json' with { type: 'json' };

/**
 * AT-SPI roles the checks accept in another CUP role than mappings.json lists, each with its reason.
 * Keys are pyatspi's role names (getRoleName()).
 */
const allowances: Readonly<Record<string, readonly string[]>> = {
  // A menu bar's entries and a submenu's opener are ROLE_MENU; to an agent they are menu items.
  menu: ['menuitem'],
  // ARIA has no toggle-button role: a toggle button is a button with a pressed state. A page's role=switch, and
  // GTK 3's GtkSwitch (one action, "toggle"), are toggle buttons to AT-SPI and switches to an agent.
  'toggle button': ['button', 'switch'],
  // AT-SPI roles mappings.json does not mention, with the CUP role that means the same thing.
  static: ['text'],
  // An editable paragraph or block (office documents, contenteditable) is a text box to an agent.
  paragraph: ['text', 'textbox'],
  caption: ['text'],
  'accelerator label': ['text'],
  'password text': ['textbox'],
  'list box': ['list'],
  'tree table': ['tree', 'table', 'grid'],
  'table column header': ['columnheader'],
  'table row header': ['rowheader'],
  'push button menu': ['button'],
  'tearoff menu item': ['menuitem'],
  'document web': ['document'],
  'document text': ['document', 'textbox'],
  'document spreadsheet': ['document'],
  'document presentation': ['document'],
  'document frame': ['document'],
  terminal: ['document', 'textbox'],
  icon: ['img'],
  image: ['img'],
  'popup menu': ['menu'],
  'internal frame': ['window'],
  // Qt gives a QFrame inside a window the frame role, a window's root role: it is a box in the window (KCalc's display).
  frame: ['group', 'generic'],
  window: ['window'],
  'info bar': ['status', 'alert', 'group'],
  notification: ['alert'],
  'level bar': ['progressbar'],
  'description term': ['listitem'],
  'description value': ['listitem'],
  'description list': ['list'],
  'spin button': ['spinbutton'],
  section: ['group', 'generic', 'textbox'],
  'html container': ['document'],
  autocomplete: ['combobox'],
  editbar: ['textbox'],
  dial: ['slider'],
  rating: ['slider'],
};

/** "ROLE_PUSH_BUTTON" -> "push button", pyatspi's spelling. */
function pyatspiName(atspiRole: string): string {
  return atspiRole.replace(/^ROLE_/, '').replace(/\?$/, '').toLowerCase().replace(/_/g, ' ');
}

function buildTable(): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  const allow = (role: string, cupRole: string) => {
    if (!table.has(role)) table.set(role, new Set());
    table.get(role)!.add(cupRole);
  };
  for (const [cupRole, platforms] of Object.entries(mappings.roles)) {
    if (cupRole.startsWith('$')) continue;
    const linux = (platforms as Record<string, string | null>).linux;
    if (!linux) continue;
    for (const alternative of linux.split('|')) allow(pyatspiName(alternative), cupRole);
  }
  // libatspi names ROLE_COLUMN_HEADER and ROLE_ROW_HEADER "table column header" and "table row header".
  for (const [alias, role] of [['table column header', 'column header'], ['table row header', 'row header']] as const) {
    for (const cupRole of table.get(role) ?? []) allow(alias, cupRole);
  }
  for (const [role, cupRoles] of Object.entries(allowances)) for (const cupRole of cupRoles) allow(role, cupRole);
  return table;
}

const table = buildTable();

/** The CUP roles allowed for a pyatspi role name, or undefined when neither mappings.json nor the allowances know it. */
export function allowedCupRoles(pyatspiRole: string): ReadonlySet<string> | undefined {
  return table.get(pyatspiRole);
}

export function roleAllowed(pyatspiRole: string, cupRole: string): boolean {
  const allowed = allowedCupRoles(pyatspiRole);
  // A role neither source knows cannot be judged; the report lists such roles separately.
  return allowed === undefined || allowed.has(cupRole);
}
