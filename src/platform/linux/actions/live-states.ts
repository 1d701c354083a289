import { decodeStateSet } from '../../../cup/atspi/states.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { readStates } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';

/** An object's AT-SPI states as they are now, by name ("STATE_CHECKED"). */
export async function liveStates(desktop: LinuxDesktop, ref: ObjectRef): Promise<Set<string>> {
  return decodeStateSet(await readStates(await desktop.atspi(), ref));
}
