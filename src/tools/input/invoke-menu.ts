import { z } from 'zod';
import type { MenuOutcome } from '../../platform/desktop-services.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { observeAction } from './action-diff.js';
import { refuseUnderModalDialog } from './modal-dialogs.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult } from './schemas.js';
import { keyboardWindow } from './targets.js';
import { chooseThroughMenuButton } from './menu-buttons.js';
import { ToolError } from '../../errors.js';

export const invokeMenu = defineTool({
  name: 'invoke_menu',
  capability: 'input',
  title: 'Choose a menu item',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Choose an item of a window\'s menu bar by its path, e.g. ["File", "Save As..."], through accessibility: each name is found among the ' +
    'items of the menu before it (case, spacing, "..." against "…" and a trailing ellipsis do not matter) and the last item is activated. ' +
    'In the background where the toolkit allows (GTK3, Qt: the menus never open on screen); a toolkit that builds a menu\'s items only when ' +
    'shown gets that menu opened through its own action. A missing name fails with menu_item_not_found listing the items that menu has. ' +
    'The result is a click\'s: effect and evidence, the windows the item opened (new_windows, with their trees) and the window\'s diff; ' +
    'menu_path is the items chosen, as the app names them. A window whose modal dialog is up is refused (blocked_by_modal_dialog, naming the ' +
    'dialog): its menus are out of a person\'s reach until the dialog is answered. ' +
    'A window whose menus are behind a button (GTK4 and GNOME\'s header bars): the path starts with the button\'s name (["Main Menu", "Preferences"]), ' +
    'which is clicked, then each next name among the entries its click showed (clicks in the background, one diff over them all). ' +
    'Unlike macOS there is no global menu bar: the menu is the window\'s own (window_id, else the active or front-most window of pid).',
  input: z.strictObject({
    pid: pidArgument.optional().describe('Target process ID; optional when window_id names the window (its process is the one acted on).'),
    window_id: windowIdArgument.optional().describe('The window whose menu bar to use; without it, the active or front-most window of pid.'),
    path: z.array(z.string().min(1)).min(1).max(12).describe('Menu names from the menu bar down, e.g. ["Edit", "Paste"].'),
    ...actionOptions,
  }),
  output: actionResult.extend({ pid: z.number(), window_id: z.number(), menu_path: z.array(z.string()), action: z.string(), opened: z.array(z.string()) }),
  byHand: 'click with delivery_mode "foreground" on the menu (or the button that opens it), then on each item of the path where it shows',
  async handle(args, context) {
    const windows = await context.desktop.windows();
    const window = await keyboardWindow(context, args, 'invoke_menu');
    // The app's front window being a modal dialog counts when no window was named: its menus are the ones under it.
    refuseUnderModalDialog('invoke_menu', window, windows, args.window_id === undefined);
    // The agent's latest snapshot of the window names the objects of the evidence by the indices it knows.
    const snapshot = context.state.snapshots.latest(window.pid, window.id);
    let menu: MenuOutcome | undefined;
    let output;
    try {
      output = await observeAction(context, `invoke_menu ${args.path.join(' > ')}`, { diff: args.diff }, window, async () => {
        menu = await context.desktop.invokeMenu(window, args.path, snapshot, context.signal);
        return targetResult(menu.outcome, undefined);
      });
    } catch (error) {
      // No menu bar holds the path: a button named by its first name opens the menu, as in GTK4's and GNOME's header
      // bars, and in a browser, whose own menu bar has a View menu beside a page's View button.
      if (!(error instanceof ToolError) || !(error.code === 'no_menu_bar' || (error.code === 'menu_item_not_found' && error.details.missing !== undefined))) throw error;
      const viaButton = await chooseThroughMenuButton(context, window, args.path, args.diff);
      // Said where the bar lacked the first name: a path the bar holds in part names no button the agent meant.
      const barLacksFirst = error.code === 'no_menu_bar' || (error.details.at as unknown[] | undefined)?.length === 0;
      if (!viaButton && !barLacksFirst) throw error;
      if (!viaButton) throw new ToolError(`${error.message}; nor does the window show a button named ${JSON.stringify(args.path[0])} to open a menu from`, error.code, error.details);
      const route = `clicked ${viaButton.path.join(' > ')} in window ${window.id} (a menu button, then what it opened)`;
      const opened = viaButton.path.slice(0, -1);
      return {
        summary: viaButton.output.summary,
        body: [route, viaButton.output.body].filter(Boolean).join('\n'),
        structured: { ...viaButton.output.structured, pid: window.pid, window_id: window.id, menu_path: viaButton.path, action: 'click', opened },
      };
    }
    const chosen = menu!;
    const route = `chose ${chosen.path.join(' > ')} in window ${window.id} ("${chosen.action}")${chosen.opened.length ? `; opened ${chosen.opened.join(', ')} on the way` : ''}`;
    return {
      summary: output.summary,
      body: [route, output.body].filter(Boolean).join('\n'),
      structured: { ...output.structured, pid: window.pid, window_id: window.id, menu_path: chosen.path, action: chosen.action, opened: chosen.opened },
    };
  },
});
