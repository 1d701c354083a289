import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import type { AtspiClient } from './client.js';

/**
 * The buses of a read tree whose toolkit computes names as accname does (ToolkitQuirks.webEngine): the window's own
 * and those of what it embeds, as a GTK app's WebKit view holds a page whose objects are on its web process's bus.
 */
export async function accnameBuses(client: AtspiClient, root: AtspiRawNode | undefined): Promise<Set<string>> {
  const buses = new Set<string>();
  const visit = (node: AtspiRawNode) => {
    buses.add(node.bus);
    for (const child of node.children) visit(child);
  };
  if (root) visit(root);
  const engines = await Promise.all([...buses].map(async (bus) => ((await client.quirksOf(bus).catch(() => undefined))?.webEngine ? [bus] : [])));
  return new Set(engines.flat());
}
