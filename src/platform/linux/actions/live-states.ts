import { decodeStateSet } from '../../cup/atspi/states.js';
import type { ObjectRef } from '../../platform/linux/atspi/object-ref.js';
import { readStates } from '../../platform/linux/atspi/operations.js';
import type { ToolContext } from '../context.js';

/** An object's AT-SPI states as they are now, by name ("STATE_CHECKED"). */
export async function liveStates(context: ToolContext, ref: ObjectRef): Promise<Set<string>> {
  return decodeStateSet(await readStates(await context.desktop.atspi(), ref));
}
