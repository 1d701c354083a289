import { z } from 'zod';
import type { PointerKind } from '../../platform/targets.js';
import { chainArguments, chainResult, runClickChain } from '../plan/click-chain.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import {
  actionOptions,
  actionResult,
  deliveryMode,
  deliveryModeArgument,
  elementIndexArgument,
  elementTokenArgument,
  elementSelectorArgument,
  selectorTimeoutArgument,
  modifierArgument,
  pointAddressing,
} from './schemas.js';
import { resolveTarget } from './targets.js';

function pointerTool(name: PointerKind, title: string, description: string) {
  return defineTool({
    name,
    capability: 'input',
    title,
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    description,
    input: z.strictObject({
      pid: pidArgument.optional(),
      window_id: windowIdArgument.optional(),
      element_index: elementIndexArgument.optional(),
      element_token: elementTokenArgument.optional(),
      selector: elementSelectorArgument.optional(),
      selector_timeout_ms: selectorTimeoutArgument.optional(),
      ...pointAddressing,
      modifier: modifierArgument,
      delivery_mode: deliveryModeArgument,
      ...actionOptions,
      ...chainArguments,
      ...(name === 'click' ? { count: z.number().int().min(1).max(3).optional().describe('Clicks (pixel or foreground path). Default 1; 2 is a double click; 3 a triple click (a line or paragraph selected), sent only as real input or X events, never through accessibility.') } : {}),
    }),
    output: actionResult.extend(chainResult),
    async handle(args, context) {
      // In a chain, one diff spans click, typing and key: the click alone reads nothing.
      const chained = args.text !== undefined || args.press_key !== undefined;
      const pointer = async () => {
        const mode = deliveryMode(args.delivery_mode);
        const target = await resolveTarget(context, args);
        const count = 'count' in args ? (args.count as number | undefined) : undefined;
        const kind: PointerKind = name === 'click' && count === 2 ? 'double_click' : name;
        // The gesture's own reads go on beside the reading before; it sends nothing until `ready` (see PointerOptions.ready).
        return observeAction(
          context,
          name,
          chained ? { diff: false } : args,
          target.window,
          async (ready) => targetResult(await context.desktop.pointer(target, kind, { mode, modifiers: args.modifier ?? [], ready, ...(count === 3 ? { count } : {}) }), target),
          true,
        );
      };
      if (!chained) return pointer();
      return runClickChain(context, args, pointer);
    },
  });
}

export const click = pointerTool(
  'click',
  'Click',
  'Left-click an element (element_index + window_id, element_token, or selector + window_id: matched when the call runs) or a point (x, y in window-local screenshot pixels). ' +
    'Background (default) performs the element\'s accessibility action (found by name: click/press/activate...), or selects a list, tree or ' +
    'table item through its container, which works on covered or minimized windows without moving the pointer or focus; foreground uses real input. The result says which rung ran, whether the effect ' +
    'was read back (confirmed), and what to try when not. An element the app reports disabled is given up to 1 s to be enabled (apps enable Save a moment after a name is typed), then refused (element_disabled) with nothing sent.',
);

export const doubleClick = pointerTool(
  'double_click',
  'Double-click',
  'Double-click an element or a point. Background uses an accessibility action that means it (double click, open, activate), selecting ' +
    'a list or tree item first as a real double click does; apps that take synthetic X events (Xaw, Motif, Tk) get two X clicks; otherwise ' +
    'the result recommends foreground, which sends two real clicks within the double-click time.',
);

export const rightClick = pointerTool(
  'right_click',
  'Right-click',
  'Right-click (open the context menu of) an element or a point. Background uses the element\'s menu action (ShowMenu/popup) where it has ' +
    'one; foreground sends a real right button click.',
);
