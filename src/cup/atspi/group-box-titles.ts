import { ATSPI_ROLE } from './constants.js';
import type { AtspiRawNode } from './raw-node.js';

/**
 * Roles of the Qt widgets that have no words of their own to be named by: Qt names such a widget, when no label is its
 * buddy, by the title of the QGroupBox it lies in (QAccessibleWidget's buddyString). A group box is one of them: one
 * inside a titled group box takes that title, not its own.
 */
const wordlessRoles: ReadonlySet<number> = new Set([
  ATSPI_ROLE.FILLER, ATSPI_ROLE.PANEL, ATSPI_ROLE.TEXT, ATSPI_ROLE.PASSWORD_TEXT, ATSPI_ROLE.SPIN_BUTTON, ATSPI_ROLE.SLIDER,
  ATSPI_ROLE.DIAL, ATSPI_ROLE.PROGRESS_BAR, ATSPI_ROLE.SCROLL_BAR, ATSPI_ROLE.SCROLL_PANE, ATSPI_ROLE.LIST, ATSPI_ROLE.TABLE,
  ATSPI_ROLE.TREE, ATSPI_ROLE.TREE_TABLE, ATSPI_ROLE.PAGE_TAB_LIST,
]);

/**
 * Buttons fall back to that title too when they draw no text (qBittorrent's icon button "Reload the filter", its tool
 * tip, read `btn "IP Filtering"`), but most draw words of their own: they never tell a group box's title.
 */
const buttonRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.PUSH_BUTTON, ATSPI_ROLE.TOGGLE_BUTTON, ATSPI_ROLE.CHECK_BOX, ATSPI_ROLE.RADIO_BUTTON]);

/** A QGroupBox as Qt exposes it: a panel, or a check box holding what it groups when it is checkable. */
function isGroupBox(node: AtspiRawNode): boolean {
  return node.role === ATSPI_ROLE.PANEL || (node.role === ATSPI_ROLE.CHECK_BOX && node.children.length > 0);
}

function isWordless(node: AtspiRawNode): boolean {
  return wordlessRoles.has(node.role) || isGroupBox(node);
}

/**
 * A group box's own title where Qt named it by the title of the group box around it: the one name its wordless
 * children were given, which is its title; none where they were given none (all it holds has words of its own).
 */
function titleFromChildren(box: AtspiRawNode): string | undefined {
  const names = new Set(box.children.filter((child) => isWordless(child) && child.name !== '').map((child) => child.name));
  return names.size === 1 ? [...names][0] : undefined;
}

/**
 * The tree with the names Qt gives wordless widgets after the group box they lie in taken away, and a group box inside
 * another given back its own title where what it holds tells it. qBittorrent's preferences read every spin box of its
 * "Log file" group as `spn "Log file"` beside the check box that says what it is ("Backup the log file after:"), its
 * "Listening Port" spin box as "Listening Port" beside "Port used for incoming connections:", and its checkable group
 * box "Use custom UI Theme" inside "Interface" as `chk "Interface"`, so no selector told them apart and no name said
 * what they set. Unnamed, they are named as other unlabelled fields are, by the text on their row (labelsByPlace), and
 * a group's one value field that nothing names so by the title it had (AtspiRawNode.groupTitle: ScreenGrab's "Image
 * quality" slider, alone in its group box).
 * Only a name equal to the enclosing group box's title is taken away: an app's own accessible name stays. Nodes on
 * the way to a renamed one are copied; the tree given is not changed, as a window's mirror keeps it.
 */
export function withGroupBoxTitles(node: AtspiRawNode, enclosingTitle?: string): AtspiRawNode {
  const inherited = enclosingTitle !== undefined && node.name === enclosingTitle && (isWordless(node) || buttonRoles.has(node.role));
  const groupBox = isGroupBox(node);
  const title = !groupBox ? undefined : inherited ? titleFromChildren(node) : node.name || undefined;
  const name = inherited ? (title ?? '') : node.name;
  let changed = name !== node.name;
  const children = node.children.map((child) => {
    const retitled = withGroupBoxTitles(child, title);
    changed ||= retitled !== child;
    return retitled;
  });
  if (!changed) return node;
  return inherited && !groupBox ? { ...node, name, groupTitle: node.name, children } : { ...node, name, children };
}
