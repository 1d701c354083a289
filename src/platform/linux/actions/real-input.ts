import { ActivationError, inForeground, parseCombination, type ParsedKey } from '../input/index.js';
import type { DesktopWindow } from '../../windows.js';
import type { X11Connection } from '../x11/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { ToolError } from '../../../errors.js';
import type { Observation } from '../../action-outcome.js';
import { editorOpenedDuring } from './opened-editor.js';

/**
 * Runs real input (XTEST) with the window active and focused, then gives the previously active window
 * back its activation and the pointer its position. A window the window manager will not activate is an
 * error before any input is sent. A window whose app opened a menu or drop-down list keeps its activation, and the
 * observation says so: Qt closes its popups when its app loses the focus, so the give-back undid the click; so does
 * one where the input opened an in-place editor and left the focus in it (see opened-editor.ts). `input` may call
 * `sent()` when all it sends has gone out, so that the restore runs while it waits for the effect (see inForeground).
 */
export async function withForeground<T extends Observation | undefined>(desktop: LinuxDesktop, window: DesktopWindow, input: (x: X11Connection, sent: () => void) => Promise<T>): Promise<T> {
  const x = await desktop.x11();
  try {
    const holdsActivation = await editorOpenedDuring(desktop, window);
    const { value, report } = await inForeground(x, window.id, (sent) => input(x, sent), { holdsActivation });
    if ((!report.keptActiveFor && !report.keptActiveWith) || !value) return value;
    const previous = report.previousActive ? `window ${report.previousActive}` : 'the window active before';
    const kept = report.keptActiveFor
      ? `window ${window.id} stays active with the popup it opened (${report.keptActiveFor.map((id) => `0x${id.toString(16)}`).join(', ')}): giving ${previous} its place back would close it`
      : `window ${window.id} stays active with ${report.keptActiveWith}: giving ${previous} its place back would end the editing`;
    return { ...value, evidence: [...value.evidence, kept] };
  } catch (error) {
    if (error instanceof ActivationError) throw new ToolError(error.message, 'activation_failed');
    throw error;
  }
}

/** A key combination, checked and in a canonical spelling ("ctrl+a", "return"), for matching shortcuts. */
export interface KeyCombination {
  parsed: ParsedKey[];
  canonical: string;
}

/** Names that spell the same key differently (enter is return) compare as one. */
const canonicalKeysyms: Record<number, string> = { 0xff0d: 'return' };

/** Parses key names; an unknown name is a tool error that lists the valid ones. */
export function parseKeys(keys: readonly string[]): KeyCombination {
  let parsed: ParsedKey[];
  try {
    parsed = parseCombination(keys);
  } catch (error) {
    throw new ToolError((error as Error).message, 'invalid_key');
  }
  const names = parsed.map((key) => {
    if (key.kind === 'modifier') return key.modifier;
    const keysym = key.keysyms[0] ?? 0;
    if (canonicalKeysyms[keysym]) return canonicalKeysyms[keysym]!;
    // Letters compare without case: ctrl+A is ctrl+a.
    if ((keysym >= 0x41 && keysym <= 0x5a) || (keysym >= 0x61 && keysym <= 0x7a)) return String.fromCharCode(keysym).toLowerCase();
    return key.name.toLowerCase();
  });
  return { parsed, canonical: names.join('+') };
}

/** The toolkit of an app, for messages ("GTK 4.8.3"); generic when unknown. */
export async function toolkitName(desktop: LinuxDesktop, bus?: string, pid?: number): Promise<string> {
  try {
    const client = await desktop.atspi();
    let appBus = bus;
    if (!appBus && pid !== undefined) appBus = (await client.applications()).find((app) => app.pid === pid)?.bus;
    if (!appBus) return 'this application';
    const toolkit = await client.toolkitOf(appBus);
    return toolkit ? `${toolkit.name.toUpperCase() === 'GTK' ? 'GTK' : toolkit.name} ${toolkit.version}`.trim() : 'this application';
  } catch {
    return 'this application';
  }
}
