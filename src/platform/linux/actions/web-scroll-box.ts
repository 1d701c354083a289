// Scrolling a box of a web page that scrolls on its own (CSS overflow auto or scroll): neither Blink nor Gecko
// marks such a box scrollable to accessibility, nor gives it a scroll bar, so the page's document was scrolled
// instead. The box is known by its content reaching past its own bounds; the page itself scrolls it.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { actionOutcome, notDelivered, type ActionOutcome, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import type { ScrollRequest } from '../../desktop.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { children, extents, parentOf, readRole } from '../atspi/operations.js';
import { findDebuggingEndpoint } from '../browser/endpoint.js';
import { relaunchCall } from '../browser/page-connections.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { contentProbe } from './scroll.js';
import { isContentMoveLine } from './content-move.js';
import { observe } from './verification.js';

type Direction = ScrollRequest['direction'];
type Box = { x: number; y: number; w: number; h: number };

/** Pixels content may stick out of its box (borders, rounding) before the box counts as holding more than it shows. */
const slack = 2;
/** Children looked at from each end: content past the end of a box shows in its first or last ones. */
const endChildren = 3;
/** Pixels a line scrolls, as for the page itself. */
const linePixels = 40;

/** Whether some of the box's content lies past its edge in the direction to scroll (there is more to see that way). */
function reachesPast(box: Box, content: readonly Box[], direction: Direction): boolean {
  switch (direction) {
    case 'down': return content.some((each) => each.y + each.h > box.y + box.h + slack);
    case 'up': return content.some((each) => each.y < box.y - slack);
    case 'right': return content.some((each) => each.x + each.w > box.x + box.w + slack);
    case 'left': return content.some((each) => each.x < box.x - slack);
  }
}

/**
 * The nearest box of the web page around the element (the element itself included) whose content reaches past its
 * own bounds in the direction to scroll, below the page's document; undefined when there is none (the page scrolls).
 */
export async function webScrollBoxOf(desktop: LinuxDesktop, start: ObjectRef, direction: Direction): Promise<ObjectRef | undefined> {
  const client = await desktop.atspi();
  if (!(await client.quirksOf(start.bus)).webEngine) return undefined;
  let current: ObjectRef | undefined = start;
  for (let depth = 0; current && depth < 64; depth++) {
    const role = await readRole(client, current).catch(() => undefined);
    if (role === undefined || role === ATSPI_ROLE.DOCUMENT_WEB || role === ATSPI_ROLE.FRAME) return undefined;
    const box = await extents(client, current).catch(() => undefined);
    if (box && box.w > 0 && box.h > 0) {
      const all = await children(client, current).catch(() => [] as ObjectRef[]);
      const ends = all.length > endChildren * 2 ? [...all.slice(0, endChildren), ...all.slice(-endChildren)] : all;
      const content = (await Promise.all(ends.map((child) => extents(client, child).catch(() => undefined)))).filter((each): each is Box => Boolean(each && each.w > 0 && each.h > 0));
      if (reachesPast(box, content, direction)) return current;
    }
    current = await parentOf(client, current).catch(() => undefined);
  }
  return undefined;
}

/**
 * Scrolls the page's box by lines or pages through the browser's debugging connection (the page's own scroll
 * offset, the box found where accessibility places it), read back by where its content lies. Without a connection
 * nothing is sent: the wheel over the box (foreground) or a relaunch with a debugging port is what works.
 * Undefined when the page says no box of its own scrolls there (content merely spilling out): the caller scrolls
 * the page.
 */
export async function scrollWebBox(desktop: LinuxDesktop, box: ObjectRef, request: ScrollRequest, label: string): Promise<ActionOutcome | undefined> {
  const client = await desktop.atspi();
  const bounds = await extents(client, box);
  const where = `at ${bounds.x},${bounds.y} ${bounds.w}x${bounds.h}`;
  if (!findDebuggingEndpoint(request.window.pid)) {
    return notDelivered(
      request.mode,
      `${label} lies in a box of the page that scrolls on its own (${where}), which the browser does not let accessibility scroll; nothing was sent: ` +
        `${RETRY_IN_FOREGROUND} (the mouse wheel over the box), or relaunch the browser with a debugging port (${relaunchCall(request.window)}) to scroll it in the background`,
    );
  }
  const vertical = request.direction === 'up' || request.direction === 'down';
  const sign = request.direction === 'up' || request.direction === 'left' ? -1 : 1;
  const span = vertical ? bounds.h : bounds.w;
  const distance = sign * (request.by === 'page' ? Math.max(linePixels, span - linePixels) : linePixels) * request.amount;
  const page = await desktop.pages.page(request.window);
  let scrolled: Awaited<ReturnType<typeof page.scrollBox>> | undefined;
  const observation = await observe(desktop, box.bus, [contentProbe(desktop, box)], async () => {
    scrolled = await page.scrollBox(bounds, vertical ? 0 : distance, vertical ? distance : 0);
  }, { snapshot: request.snapshot });
  if (!scrolled?.scrolled) return undefined;
  const moved = `the page's scroll box <${scrolled.node}> (${where}) around ${label} scrolled from ${scrolled.before} to ${scrolled.after} of 0..${scrolled.end} CSS pixels`;
  if (scrolled.after === scrolled.before) {
    return { path: 'devtools', delivery_mode: 'background', effect: 'suspected_noop', verified: true, evidence: [`${moved}: it is already at its ${sign < 0 ? 'start' : 'end'}`] };
  }
  // The page's own offsets say where the box went: the line of its content's boxes would say it again.
  return actionOutcome({ path: 'devtools', mode: 'background', observation: { ...observation, evidence: [moved, ...observation.evidence.filter((line) => !isContentMoveLine(line))] } });
}
