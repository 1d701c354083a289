// The facts an agent must be able to read off a terminal program's screen, and one way of checking them
// that works both through the live tools (tui_query_all, tui_snapshot) and on a recorded screen.
import type { Bounds, UINode } from '../../src/tui/ui-node.js';

/**
 * One readable fact. `says` is the fact in words (shown when it fails).
 * - `selector`: the selector matches exactly `count` nodes (default 1), or at least `atLeast`.
 * - `focus`: the focused node matches `focus` (a selector); `inside`: the focused node lies within the
 *   bounds of the one node that selector matches (a panel, a window, a dialog). Either or both.
 */
export type Fact =
  | { says: string; selector: string; count?: number; atLeast?: number }
  | { says: string; focus?: string; inside?: string };

/** What a fact is checked against: the live tools or a recorded screen's structure. */
export interface ScreenReader {
  /** Every node the selector matches (without children is enough). */
  all(selector: string): Promise<UINode[]>;
  /** The id of the focused node, or null. */
  focusId(): Promise<string | null>;
}

function within(inner: Bounds, outer: Bounds): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

function listed(nodes: UINode[]): string {
  if (nodes.length === 0) return 'nothing';
  const shown = nodes.slice(0, 6).map((node) => `${node.role} ${JSON.stringify(node.name.length > 50 ? `${node.name.slice(0, 47)}...` : node.name)}${node.selected ? ' selected' : ''}${node.focused ? ' focused' : ''}`);
  return `${nodes.length}: ${shown.join('; ')}${nodes.length > 6 ? '; ...' : ''}`;
}

/** Null when the fact holds, else why not (what the structure held instead). */
export async function checkFact(fact: Fact, reader: ScreenReader): Promise<string | null> {
  if ('selector' in fact) {
    const found = await reader.all(fact.selector);
    const holds = fact.atLeast !== undefined ? found.length >= fact.atLeast : found.length === (fact.count ?? 1);
    if (holds) return null;
    const wanted = fact.atLeast !== undefined ? `at least ${fact.atLeast}` : `${fact.count ?? 1}`;
    return `${fact.says}: ${JSON.stringify(fact.selector)} matched ${listed(found)} (wanted ${wanted})`;
  }
  const focusId = await reader.focusId();
  const [focused] = focusId === null ? [] : await reader.all(`id=${JSON.stringify(focusId)}`);
  if (!focused) return `${fact.says}: no node has focus`;
  if (fact.focus !== undefined) {
    const candidates = await reader.all(fact.focus);
    if (!candidates.some((node) => node.id === focused.id)) {
      return `${fact.says}: focus is on ${listed([focused])}, which ${JSON.stringify(fact.focus)} does not match (it matches ${listed(candidates)})`;
    }
  }
  if (fact.inside === undefined) return null;
  const outer = await reader.all(fact.inside);
  if (outer.length !== 1 || !outer[0]!.bounds || !focused.bounds) return `${fact.says}: ${JSON.stringify(fact.inside)} matched ${listed(outer)} (wanted 1)`;
  return within(focused.bounds, outer[0]!.bounds) ? null : `${fact.says}: the focused ${listed([focused])} is not inside ${listed(outer)}`;
}

/** Every failed fact of a list, in order. */
export async function failedFacts(facts: readonly Fact[], reader: ScreenReader): Promise<string[]> {
  const failures: string[] = [];
  for (const fact of facts) {
    const failure = await checkFact(fact, reader);
    if (failure) failures.push(failure);
  }
  return failures;
}
