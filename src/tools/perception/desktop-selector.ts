// The terminal tools' selector grammar over CUP nodes: roles are CUP roles (compact codes such as "btn" are
// accepted for them), fields are role, name, value, description and id (eN), and the flags are CUP's states.
import { z } from 'zod';
import { ROLE_CODES } from '../../cup/codes.js';
import { CUP_ROLES, CUP_STATES, type CupNode, type CupState } from '../../cup/types.js';
import { ToolError } from '../../errors.js';
import { parseSelectorOrThrow } from '../../tui/selector/errors.js';
import { matchNodes } from '../../tui/selector/match.js';
import { MAX_SELECTOR_LENGTH, type Selector, type SelectorVocabulary } from '../../tui/selector/parse.js';
import { closestName } from '../../cup/closest-name.js';
import { isClosedMenu } from '../../cup/prune.js';

const DESKTOP_FIELDS = ['role', 'name', 'value', 'description', 'id'] as const;
type DesktopField = (typeof DESKTOP_FIELDS)[number];

/**
 * A selector's flags: CUP's states, and `invalid`, the attribute a field the page or app rejects carries (a form's
 * rejected fields, which no state names, were found by no selector).
 */
type DesktopFlag = CupState | 'invalid';

const DESKTOP_VOCABULARY: SelectorVocabulary<DesktopField, DesktopFlag> = {
  fields: DESKTOP_FIELDS,
  // "focus" is the terminal grammar's spelling of focused; both work here too.
  flags: new Map<string, DesktopFlag>([...CUP_STATES.map((state): [string, DesktopFlag] => [state, state]), ['focus', 'focused'], ['invalid', 'invalid']]),
};

export type DesktopSelector = Selector<DesktopField, DesktopFlag>;

const roleByCode = new Map<string, string>(Object.entries(ROLE_CODES).map(([role, code]) => [code, role]));
const roles: readonly string[] = CUP_ROLES;

export const desktopSelectorArgument = z
  .string()
  .min(1)
  .max(MAX_SELECTOR_LENGTH)
  .describe(
    'Selector: space-separated terms that must all hold, e.g. role=button name="Save as"; fields role (a CUP role such as button, textbox, ' +
      'listitem, or its compact code: btn, tbx, li), name, value, description (the tool tip or aria-describedby text), id (eN) with = (exact), ~= (case-insensitive substring), *= (regex), ' +
      `^= (prefix); flags are CUP states (${CUP_STATES.join(', ')}; focus = focused) and invalid (a value the page or app rejects), !flag where it does not hold (role=button !disabled); [index=N] picks the N-th match (negative from the end); ` +
      '"A >> B" finds B inside matches of A.',
  );

/**
 * Parses a desktop selector: invalid_selector with the position for bad syntax, and for an exact role that
 * is no CUP role (it could never match). Compact role codes are rewritten to their role.
 */
export function parseDesktopSelector(source: string): DesktopSelector {
  const selector = parseSelectorOrThrow(source, DESKTOP_VOCABULARY);
  for (const segment of selector.segments) {
    for (const term of segment.terms) {
      if (term.kind !== 'field' || term.field !== 'role' || term.op !== '=') continue;
      const role = roleByCode.get(term.value) ?? term.value;
      if (!roles.includes(role)) {
        // A state written onto the role as a CSS pseudo-class ("textbox:focused") is a flag of its own here.
        const [written, state] = term.value.split(':', 2) as [string, string | undefined];
        const asRole = roleByCode.get(written) ?? written;
        if (state !== undefined && roles.includes(asRole) && DESKTOP_VOCABULARY.flags.has(state)) {
          throw new ToolError(`invalid selector: a state is a word of its own, not part of the role: write role=${written} ${state}`, 'invalid_selector', {
            position: source.indexOf(term.value),
            problem: `state "${state}" written onto role "${written}"`,
          });
        }
        const near = closestName(term.value, roles);
        throw new ToolError(`invalid selector: role "${term.value}" is no CUP role${near ? `; did you mean ${near}?` : ''} (roles: ${roles.join(', ')})`, 'invalid_selector', {
          position: source.indexOf(term.value),
          problem: `unknown role "${term.value}"`,
        });
      }
      term.value = role;
    }
  }
  return selector;
}

function field(node: CupNode, name: DesktopField): string | undefined {
  switch (name) {
    case 'role':
      return node.role;
    case 'name':
      return node.name;
    case 'value':
      return node.value;
    case 'description':
      return node.description;
    case 'id':
      return node.id;
  }
}

/** A field term as a selector writes one (role=button, name~="Save"): a query holding one is read as a selector. */
const FIELD_TERM = new RegExp(`(^|\\s)(${DESKTOP_FIELDS.join('|')})(=|~=|\\*=|\\^=)`);

/**
 * get_window_state's query as a selector, when it is written as one (a field term, or "A >> B"); undefined for
 * plain text. A new user filtered a window with role=button and was shown nothing: it was searched as text.
 */
export function selectorQuery(query: string): DesktopSelector | undefined {
  return FIELD_TERM.test(query) || query.includes('>>') ? parseDesktopSelector(query) : undefined;
}

/** Whether the selector asks for hidden nodes itself (the hidden flag, not negated, in any segment). */
function asksHidden(selector: DesktopSelector): boolean {
  return selector.segments.some((segment) => segment.terms.some((term) => term.kind === 'flag' && term.flag === 'hidden' && term.not !== true));
}

/**
 * The hidden documents of the trees and everything in them: a browser's background tabs, and the New Tab page Firefox
 * keeps loaded behind the page it shows. The converter marks them hidden, and the compact view leaves them out.
 */
function hiddenDocuments(roots: readonly CupNode[]): Set<CupNode> {
  const found = new Set<CupNode>();
  const walk = (node: CupNode, inside: boolean): void => {
    const hidden = inside || (node.role === 'document' && node.states?.includes('hidden') === true);
    if (hidden) found.add(node);
    for (const child of node.children ?? []) walk(child, hidden);
  };
  for (const root of roots) walk(root, false);
  return found;
}

/**
 * The nodes of the trees that the selector matches, in document order. What a hidden document holds is matched only
 * when the selector asks for hidden nodes (or `withHiddenDocuments`): a fresh Firefox's `role=link` matched the five
 * links of its New Tab page, loaded and never shown, beside the page's own, as targets to click.
 */
export function matchDesktop(roots: readonly CupNode[], selector: DesktopSelector, withHiddenDocuments = false): CupNode[] {
  const unshown = withHiddenDocuments || asksHidden(selector) ? undefined : hiddenDocuments(roots);
  const flag = (node: CupNode, wanted: DesktopFlag) => (wanted === 'invalid' ? node.attributes?.invalid === true : (node.states?.includes(wanted) ?? false));
  return matchNodes(roots, selector, { field, flag, excluded: unshown && ((node) => unshown.has(node)) });
}

/**
 * The nodes whose names are suggested when nothing matched: those a person can see or open to, unless the selector asks
 * for hidden nodes. Not a hidden document's (Firefox's New Tab page, loaded and never shown, offered its links' names
 * as the nearest), nor the choices of a closed combo box or the items of a closed menu (Mousepad's Find and Replace
 * offered "Selection", a choice of its closed "Replace all in:" list, as the nearest name to a button sought): the box
 * or menu itself is offered, as it is what is seen, and set_value or opening it reaches its choices.
 */
export function nameSources(roots: readonly CupNode[], selector: DesktopSelector): CupNode[] {
  const withHidden = asksHidden(selector);
  const unshown = withHidden ? undefined : hiddenDocuments(roots);
  const sources: CupNode[] = [];
  const walk = (node: CupNode): void => {
    if (unshown?.has(node)) return;
    sources.push(node);
    if (!withHidden && isClosedMenu(node)) return;
    for (const child of node.children ?? []) walk(child);
  };
  for (const root of roots) walk(root);
  return sources;
}

/**
 * How many nodes of hidden documents the selector would match too, left out of `matched`, matchDesktop's answer for
 * the same trees (0 when it asks for hidden ones).
 */
export function hiddenDocumentMatches(roots: readonly CupNode[], selector: DesktopSelector, matched: readonly CupNode[]): number {
  return asksHidden(selector) ? 0 : matchDesktop(roots, selector, true).length - matched.length;
}

/** The role the selector's last segment asks for exactly (role=alert), if it does. */
export function soughtRole(selector: DesktopSelector): string | undefined {
  const term = (selector.segments.at(-1)?.terms ?? []).find((each) => each.kind === 'field' && each.field === 'role' && each.op === '=');
  return term?.kind === 'field' ? term.value : undefined;
}

/** The text a selector looks for in names or values (its last segment's), to say which names came near. */
export function soughtText(selector: DesktopSelector): string | undefined {
  const terms = selector.segments.at(-1)?.terms ?? [];
  for (const term of terms) {
    if (term.kind === 'field' && (term.field === 'name' || term.field === 'value')) return term.value;
    if (term.kind === 'regex' && (term.field === 'name' || term.field === 'value')) return term.regex.source;
  }
  return undefined;
}

/**
 * The selector with its last segment's name terms asking `field` instead, or undefined when it has none. A
 * spreadsheet names its cells by their place ("A3") and holds what they show as their value: `role=cell name~=Banana`
 * matched nothing in LibreOffice Calc, and the nearest names offered were menu items, where `value~=Banana` finds A3.
 * An app may name a control by an identifier and say its label in the description, which a screen reader reads
 * after the name: MATE Calculator's "clear" button is described "Clear Display [Escape]", its "divide" "Divide [/]".
 */
export function nameAskedAs(selector: DesktopSelector, field: 'value' | 'description'): DesktopSelector | undefined {
  const last = selector.segments.at(-1);
  if (!last?.terms.some((term) => term.kind !== 'flag' && term.kind !== 'index' && term.field === 'name')) return undefined;
  const terms = last.terms.map((term) => (term.kind !== 'flag' && term.kind !== 'index' && term.field === 'name' ? { ...term, field } : term));
  return { ...selector, segments: [...selector.segments.slice(0, -1), { terms }] };
}
