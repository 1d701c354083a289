// What the live-mirror tests share: a seeded generator for their random changes, and comparisons of a mirror's
// reading with fresh walks of the same window.
import { atspiToCup } from '../../src/cup/atspi/convert.js';
import type { CupNode } from '../../src/cup/types.js';
import type { WindowTree } from '../../src/platform/linux/linux-desktop.js';
import { flattenNodes } from '../../src/tui/ui-node.js';

/** mulberry32: a small seeded generator, so a failing sequence can be replayed from its seed. */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export function cup(tree: WindowTree): { root?: CupNode; identities: string[] } {
  const converted = tree.read?.root ? atspiToCup(tree.read.root, tree.context) : undefined;
  return { root: converted?.root, identities: converted?.sources.map((source) => `${source.bus} ${source.path}`) ?? [] };
}

/** Each node's own fields (no id: the index moves with what comes before it; no children) by its object. */
function ownFields(tree: WindowTree): Map<string, string> {
  const converted = tree.read?.root ? atspiToCup(tree.read.root, tree.context) : undefined;
  const byIndex = new Map(converted?.sources.map((source) => [`e${source.index}`, source.path]));
  return new Map(
    flattenNodes(converted ? [converted.root] : []).map(({ id, children: _children, ...own }) => [byIndex.get(id)!, JSON.stringify(own)]),
  );
}

/** The first element an eventsOnly read says it read now that is not as the walk read it. */
export function staleCurrent(quick: WindowTree, walk: WindowTree): string | undefined {
  const mine = ownFields(quick);
  const walked = ownFields(walk);
  for (const path of quick.mirror?.current ?? []) {
    if (mine.get(path) !== walked.get(path)) return `${path}: events-only read ${mine.get(path)} / walk ${walked.get(path)}`;
  }
  return undefined;
}

/** The first place two CUP trees differ, for a readable failure. */
export function firstDifference(a: CupNode | undefined, b: CupNode | undefined): string | undefined {
  // Ids follow from the order of everything numbered before (scrolled-away rows and closed menus' items come
  // last): the first node whose id differs is seldom where the trees differ, so the rest is compared first.
  return difference(a, b, 'root', false) ?? difference(a, b, 'root', true);
}

function difference(a: CupNode | undefined, b: CupNode | undefined, where: string, withIds: boolean): string | undefined {
  if (!a || !b) return a === b ? undefined : `${where}: one tree is missing`;
  const { children: ac = [], id: aId, ...aRest } = a;
  const { children: bc = [], id: bId, ...bRest } = b;
  const [aOwn, bOwn] = withIds ? [{ id: aId, ...aRest }, { id: bId, ...bRest }] : [aRest, bRest];
  if (JSON.stringify(aOwn) !== JSON.stringify(bOwn)) return `${where}: mirror ${JSON.stringify({ id: aId, ...aRest })} / walk ${JSON.stringify({ id: bId, ...bRest })}`;
  if (ac.length !== bc.length) return `${where}: mirror has ${ac.length} children, walk ${bc.length} (${ac.map((c) => c.name).join('|')} / ${bc.map((c) => c.name).join('|')})`;
  for (let i = 0; i < ac.length; i++) {
    const found = difference(ac[i], bc[i], `${where} > ${bc[i]!.role} "${bc[i]!.name ?? ''}"`, withIds);
    if (found) return found;
  }
  return undefined;
}

