// TypeScript shapes of the CUP envelope (schema/cup.schema.json, draft 2020-12).
// The unions mirror the schema enums exactly; the arrays exist so callers can check membership at run time.

export const CUP_ROLES = [
  'alert', 'alertdialog', 'application', 'banner', 'button', 'cell', 'checkbox', 'columnheader',
  'combobox', 'complementary', 'contentinfo', 'dialog', 'document', 'form', 'generic', 'grid',
  'group', 'heading', 'img', 'link', 'list', 'listitem', 'log', 'main', 'marquee', 'menu',
  'menubar', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'navigation', 'none', 'option',
  'progressbar', 'radio', 'region', 'row', 'rowheader', 'scrollbar', 'search', 'searchbox',
  'separator', 'slider', 'spinbutton', 'status', 'switch', 'tab', 'table', 'tablist', 'tabpanel',
  'text', 'textbox', 'timer', 'titlebar', 'toolbar', 'tooltip', 'tree', 'treeitem', 'window',
] as const;
export type CupRole = (typeof CUP_ROLES)[number];

export const CUP_STATES = [
  'busy', 'checked', 'collapsed', 'disabled', 'editable', 'expanded', 'focused', 'hidden', 'mixed',
  'modal', 'multiselectable', 'offscreen', 'pressed', 'readonly', 'required', 'selected',
] as const;
export type CupState = (typeof CUP_STATES)[number];

export const CUP_ACTIONS = [
  'click', 'collapse', 'decrement', 'dismiss', 'doubleclick', 'expand', 'focus', 'increment',
  'longpress', 'rightclick', 'scroll', 'select', 'setvalue', 'toggle', 'type',
] as const;
export type CupAction = (typeof CUP_ACTIONS)[number];

export type CupPlatform = 'windows' | 'macos' | 'linux' | 'web' | 'android' | 'ios';

export type CupScope = 'overview' | 'foreground' | 'desktop' | 'full';

export interface CupRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface CupAttributes {
  level?: number;
  valueMin?: number;
  valueMax?: number;
  valueNow?: number;
  orientation?: 'horizontal' | 'vertical';
  rowIndex?: number;
  colIndex?: number;
  rowCount?: number;
  colCount?: number;
  posInSet?: number;
  setSize?: number;
  placeholder?: string;
  url?: string;
  live?: 'polite' | 'assertive' | 'off';
  autocomplete?: 'inline' | 'list' | 'both' | 'none';
  keyShortcut?: string;
  roledescription?: string;
  /** How a column or row header sorts its table (aria-sort); absent when it does not. */
  sort?: 'ascending' | 'descending' | 'other';
  /** The value held is rejected (aria-invalid, a failed form check: AT-SPI's invalid-entry state); absent when it is not. */
  invalid?: true;
  /** Why the value is rejected, as the page says it beside the field (aria-errormessage); only with `invalid`. */
  errorMessage?: string;
}

/** Raw native properties per platform (the schema's escape hatch; open-ended by design). */
export type CupNodePlatform = Partial<Record<CupPlatform, Record<string, unknown>>>;

export interface CupNode {
  id: string;
  role: CupRole;
  name: string;
  description?: string;
  value?: string;
  bounds?: CupRect;
  states?: CupState[];
  actions?: CupAction[];
  attributes?: CupAttributes;
  children?: CupNode[];
  platform?: CupNodePlatform;
}

/** One open top-level window; the schema allows extra properties here. */
export interface CupWindowInfo {
  title?: string;
  pid?: number | null;
  foreground?: boolean;
  bounds?: CupRect | null;
  url?: string;
  [extra: string]: unknown;
}

/** A WebMCP tool discovered on a page; the schema allows extra properties here. */
export interface CupTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface CupScreen {
  w: number;
  h: number;
  scale?: number;
}

export interface CupAppInfo {
  name?: string;
  pid?: number;
  bundleId?: string;
}

export interface CupEnvelope {
  version: string;
  platform: CupPlatform;
  timestamp?: number;
  screen: CupScreen;
  app?: CupAppInfo;
  scope?: CupScope;
  tree: CupNode[];
  windows?: CupWindowInfo[];
  tools?: CupTool[];
}

/** `compact` prunes the tree for an agent's context window; `full` keeps every node. */
export type CupDetail = 'compact' | 'full';
