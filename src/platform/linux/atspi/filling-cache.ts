// Walks of a browser that answers its first client before its cache of the page is filled.
//
// Gecko's parent process answers for a page from a cache its content process fills, kind by kind of field, only once
// some client asks for that kind. Asked by pyatspi as Firefox ESR 140's first client, every page object's box was
// -1,-1,-1,-1, its relations none, its actions none, a slider's value 0 and a list item's attributes nothing, then
// places counted among its siblings (Result 41 of 500 said 1 of 2); some 50 ms later every answer was whole, and
// stayed so for the life of the process. Roles, names, states and text were right from the first answer.
// Its hit test answers from a part of that cache of its own, filled once a client first asks one (hitTestFilled).
import { setTimeout as sleep } from 'node:timers/promises';
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { AtspiClient } from './client.js';
import type { ObjectRef } from './object-ref.js';
import { readTree, type ReadTreeOptions, type ReadTreeResult } from './tree-reader.js';

/** How long a walk that met an unfilled cache waits before the next: the margin over the 50 ms seen is for a loaded machine. */
const FILLING_MS = 300;
/** Walks after the first that met it, at most: a page may hold an object that truly has no box. */
const maxRewalks = 2;
/** Buses whose walk held a page with a filled cache: their answers are whole from then on. */
const filledBuses = new Set<string>();
/** The set starts over past this many (a bound on what a long-running daemon keeps; bus names are never reused). */
const maxBuses = 1000;

/** Whether a walk holds a web page, and whether it shows the cache unfilled: a shown object whose box is -1,-1,-1,-1. */
function pageCache(root: AtspiRawNode): { page: boolean; unfilled: boolean } {
  let page = false;
  let unfilled = false;
  const visit = (node: AtspiRawNode) => {
    if (node.role === ATSPI_ROLE.DOCUMENT_WEB) page = true;
    const box = node.extents;
    if (box && box.x === -1 && box.y === -1 && box.w === -1 && box.h === -1 && hasState(node.states, ATSPI_STATE.SHOWING)) unfilled = true;
    for (const child of node.children) visit(child);
  };
  visit(root);
  return { page, unfilled };
}

/**
 * A walk (readTree) of a window whose toolkit fills its page cache lazily (ToolkitQuirks.fillsCacheLazily): until a
 * walk of its bus has held a page whose cache was filled, one that shows it unfilled is walked again once the cache
 * is, with what was kept of the bus's objects from the unfilled answers (actions, attributes, places) forgotten.
 */
export async function readTreeFilled(client: AtspiClient, start: ObjectRef, options: ReadTreeOptions): Promise<ReadTreeResult> {
  let read = await readTree(client, start, options);
  if (!options.fillsCacheLazily || filledBuses.has(start.bus)) return read;
  for (let walks = 0; ; walks++) {
    if (!read.root || read.failure) return read;
    const { page, unfilled } = pageCache(read.root);
    if (!page) return read;
    if (!unfilled || walks === maxRewalks) break;
    client.facts.forgetApplication(start.bus);
    await sleep(FILLING_MS);
    read = await readTree(client, start, options);
  }
  if (filledBuses.size >= maxBuses) filledBuses.clear();
  filledBuses.add(start.bus);
  return read;
}

/**
 * Gecko's hit test (GetAccessibleAtPoint) in a page answers from a part of the cache of its own, filled once a client
 * first asks one: Firefox ESR 140's first hit test at the Go button, right after launch_app's reads had filled every
 * box, answered nothing, and 50 ms later the button. The driver then searched its tree for the point and clicked a
 * section of the New Tab page Firefox keeps ready behind the page. Pauses before each ask again.
 */
const hitTestFillingPausesMs = [50, 100, 150];
/** Buses whose hit tests have waited for the filling once: their answer of nothing is believed from then on. */
const hitTestedBuses = new Set<string>();

/**
 * A hit test (`ask`) on a bus whose toolkit fills its cache lazily: until one on the bus has waited, an answer of
 * nothing is asked again after each pause until something answers, as Gecko's first answers nothing for a page.
 */
export async function hitTestFilled<T>(bus: string, fillsCacheLazily: boolean, ask: () => Promise<T | undefined>): Promise<T | undefined> {
  let hit = await ask();
  if (hit !== undefined || !fillsCacheLazily || hitTestedBuses.has(bus)) return hit;
  for (const pause of hitTestFillingPausesMs) {
    await sleep(pause);
    hit = await ask();
    if (hit !== undefined) break;
  }
  if (hitTestedBuses.size >= maxBuses) hitTestedBuses.clear();
  hitTestedBuses.add(bus);
  return hit;
}
