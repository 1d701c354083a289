// The basics of many objects in one call: an application's org.a11y.atspi.Cache.GetItems.
//
// Each item is (object, application, parent, index in parent, child count, interfaces, name, role, description,
// states): a((so)(so)(so)iiassusau), at-spi2-core's xml/Cache.xml. What a toolkit puts in it differs (measured on
// 2026-11-30): Qt 5.15 answers no item at all; at-spi2-atk (Java's bridge, Gecko, GTK 3) answers every object it
// ever registered but no transient one (a Swing table's cells, a Gecko page's objects), working each one's fields
// out anew (Freeplane: 1,500 items in 350 ms, more than a whole walk of its window); GTK 4 answers the objects a
// client has been given a reference to, from the same functions as their own calls (ToolkitQuirks.basicsInCache).
import { shortInterfaceName, type ObjectRef } from './object-ref.js';

/** Where an application answers Cache.GetItems. */
export const CACHE_PATH = '/org/a11y/atspi/cache';
export const CACHE_INTERFACE = 'org.a11y.atspi.Cache';

/** What one item says of an object: what its Name, Description, ChildCount, GetRole, GetInterfaces and GetState answer. */
export interface CachedBasics {
  name: string;
  description: string;
  childCount: number;
  role: number;
  /** In their short form ("Text"). */
  interfaces: string[];
  states: number[];
}

/** The cache of the application an object belongs to. */
export function cacheOf(object: ObjectRef): ObjectRef {
  return { bus: object.bus, path: CACHE_PATH };
}

/**
 * The items of a GetItems answer by object path. An item not of the layout above (at-spi2-atk before 2.34 answered
 * another: (o(so)a(so)assusau)) is left out: its object is asked as without a cache.
 */
export function basicsByPath(body: unknown[] | undefined): Map<string, CachedBasics> {
  const byPath = new Map<string, CachedBasics>();
  const items = body?.[0];
  if (!Array.isArray(items)) return byPath;
  for (const item of items) {
    if (!Array.isArray(item) || item.length !== 10) continue;
    const [ref, , , , count, interfaces, name, role, description, states] = item as unknown[];
    const path = Array.isArray(ref) ? ref[1] : undefined;
    if (typeof path !== 'string' || typeof count !== 'number' || !Array.isArray(interfaces) || typeof name !== 'string') continue;
    if (typeof role !== 'number' || typeof description !== 'string' || !Array.isArray(states) || states.length !== 2) continue;
    byPath.set(path, {
      name,
      description,
      childCount: count,
      role,
      interfaces: (interfaces as string[]).map(shortInterfaceName),
      states: states as number[],
    });
  }
  return byPath;
}
