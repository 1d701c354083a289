import { setTimeout as sleep } from 'node:timers/promises';
import type { CupNode } from '../../cup/types.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';

/**
 * Waits until the window's accessibility tree holds a web document that has finished loading (a loading one says
 * busy), named `title` when one is given: a browser reports a page loaded before it has handed the page's
 * accessibility tree to its window, and the agent's next read must show the page, not the one before or none.
 * Resolves whether it got there by `deadline`.
 */
export async function pageInTree(context: ToolContext, window: DesktopWindow, deadline: number, title?: string): Promise<boolean> {
  while (Date.now() < deadline) {
    const reading = await context.desktop.readWindow(window, { maxNodes: 400, maxDepth: 30, budgetMs: Math.max(100, deadline - Date.now()) });
    if (reading.root && hasDocument(reading.root, title || undefined)) return true;
    await sleep(Math.min(100, Math.max(0, deadline - Date.now())));
  }
  return false;
}

function hasDocument(node: CupNode, title: string | undefined): boolean {
  const loaded = node.role === 'document' && !node.states?.includes('busy') && (title === undefined || node.name === title);
  return loaded || (node.children ?? []).some((child) => hasDocument(child, title));
}
