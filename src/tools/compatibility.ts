import { closestName } from '../cup/closest-name.js';

const deliveryModes = ['background', 'foreground'];

/**
 * What a call's arguments asked for that the driver accepts for compatibility but does not do (seed 001):
 * an unknown delivery_mode runs in background, capture_mode is ignored. The call still runs; the caller is
 * told, so a typo does not silently change what happened.
 */
export function compatibilityWarnings(args: Record<string, unknown>): string[] {
  const warnings: string[] = [];
  const mode = args.delivery_mode;
  if (typeof mode === 'string' && !deliveryModes.includes(mode)) {
    const guess = closestName(mode, deliveryModes);
    warnings.push(`delivery_mode ${JSON.stringify(mode)} is not known; ran in background${guess ? `; did you mean ${guess}?` : ' (the modes are background and foreground)'}`);
  }
  if (args.capture_mode !== undefined) {
    warnings.push('capture_mode is accepted for compatibility and ignored: get_window_state returns the tree and the screenshot (include_screenshot: false leaves the screenshot out)');
  }
  return warnings;
}
