import { windowName } from '../../platform/windows.js';
import { z } from 'zod';
import { pidArgument, windowIdArgument, windowResult } from '../schemas.js';
import { defineTool } from '../tool.js';
import { desktopSelectorArgument, hiddenDocumentMatches, matchDesktop, parseDesktopSelector } from './desktop-selector.js';
import { insteadSentence, matchedInstead, matchLine, matchRecord, matchResult, nearestNames, onScreenFirst, unreadItemNotes } from './element-matches.js';
import { resolveWindow, windowRecord } from './window-records.js';
import { partialReason, readSnapshot, wholeWindowLimits } from './window-snapshot.js';

export const findElements = defineTool({
  name: 'find_elements',
  capability: 'perception',
  title: 'Find elements in a window',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'The elements of one window that a selector matches, each with an element_token for click, type_text and the other actions, ' +
    'without the whole tree or a screenshot. The window is read like get_window_state and kept as its latest snapshot, so element ' +
    'indices from this result work too. Example: role=button name~=save; role=list >> role=listitem [index=0].',
  input: z.strictObject({
    pid: pidArgument.optional().describe('Target process ID; optional: window_id names the window, as it does for the actions.'),
    window_id: windowIdArgument,
    selector: desktopSelectorArgument,
    max_results: z.number().int().min(1).max(1000).default(100).describe('Return at most this many matches (count has them all), those on screen first. Default 100.'),
  }),
  output: z.object({
    snapshot_id: z.string(),
    window: windowResult,
    count: z.number(),
    truncated: z.boolean(),
    matches: z.array(matchResult),
    nearest_names: z.array(z.string()).optional().describe('With no match: the element names nearest to the one sought.'),
    by_value: z.array(z.string()).optional().describe('With no match by name: the elements whose value matches it instead (a spreadsheet cell is named by its place); ask value in place of name.'),
    by_description: z
      .array(z.string())
      .optional()
      .describe('With no match by name: the elements whose description (tool tip) matches it instead (an app that names a button by an identifier, "divide", describes it "Divide [/]"); ask description in place of name.'),
    unread: z.array(z.string()).optional().describe('With no match: containers holding more items than the tree has (a virtualised list), and where to scroll them.'),
    degraded_reason: z.string().optional(),
  }),
  async handle(args, context) {
    const selector = parseDesktopSelector(args.selector);
    const window = await resolveWindow(context, args.window_id, args.pid);
    const { reading, snapshot, nodes } = await readSnapshot(context, window, wholeWindowLimits);
    const roots = reading.root ? [reading.root] : [];
    const found = matchDesktop(roots, selector);
    // Matches left out because they are in a hidden document (a background tab) are said, with how to ask for them.
    const unshown = hiddenDocumentMatches(roots, selector, found);
    const { ordered, onScreen } = onScreenFirst(found);
    const matches = ordered.slice(0, args.max_results).map((node) => matchRecord(snapshot, window, node));
    // A cut list says where those on screen end, so the agent knows the rest are hidden or off screen.
    const cut = found.length > matches.length ? ` (first ${matches.length} shown${onScreen < found.length ? `, those on screen first: ${onScreen} of ${found.length} are` : ''})` : '';
    const nearest = found.length === 0 ? nearestNames(roots, selector) : [];
    // What the name sought is the value of (a sheet's cells, named by their place), or the description of (a button
    // named by an identifier, its label in its tool tip): said, with how to ask for it.
    const instead = (field: 'value' | 'description') => (found.length === 0 && reading.root ? matchedInstead([reading.root], selector, field) : []);
    const [byValue, byDescription] = [instead('value'), instead('description')];
    const unread = found.length === 0 ? unreadItemNotes(nodes) : [];
    const degradedReason = partialReason(reading);
    const degraded = degradedReason ? `; degraded: ${degradedReason}` : '';
    return {
      summary:
        `✅ ${found.length} element${found.length === 1 ? '' : 's'} of ${windowName(window)} (window ${window.id}, snapshot ${snapshot.id}) match ${JSON.stringify(args.selector)}` +
        `${cut}${nearest.length > 0 ? `; nearest names: ${nearest.map((name) => JSON.stringify(name)).join(', ')}` : ''}${insteadSentence(byValue, byDescription)}${unshown > 0 ? `; ${unshown} more in hidden documents (background tabs, pages not shown) left out: add the flag hidden to match them` : ''}${unread.length > 0 ? `; unread: ${unread.join('; ')}` : ''}${degraded}`,
      body: matches.map(matchLine).join('\n') || undefined,
      structured: {
        snapshot_id: snapshot.id,
        window: windowRecord(window),
        count: found.length,
        truncated: found.length > matches.length,
        matches,
        ...(nearest.length > 0 ? { nearest_names: nearest } : {}),
        ...(byValue.length > 0 ? { by_value: byValue } : {}),
        ...(byDescription.length > 0 ? { by_description: byDescription } : {}),
        ...(unread.length > 0 ? { unread } : {}),
        ...(degradedReason ? { degraded_reason: degradedReason } : {}),
      },
    };
  },
});
