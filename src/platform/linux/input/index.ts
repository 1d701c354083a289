// The real-input ("foreground") layer on X11: keys, text, pointer and window activation through XTEST and the
// window manager, plus the agent cursor overlay. Every function takes the caller's X11Connection.
//
// Conventions:
// - Arguments are checked before anything is pressed; a bad one rejects with an error naming it and what would work.
// - Nothing stays pressed: keys and buttons are released, and temporary key bindings restored, also on errors.
// - Every wait is bounded (activation by timeoutMs, replies by the connection's deadline).
// - Keyboard actions on one connection run one at a time, in call order.
export { moveAgentCursor, hideAgentCursor, agentCursorState, removeAgentCursor, setAgentCursorLook, type AgentCursorState } from './agent-cursor.js';
export type { Point } from './checks.js';
export { armEscapeGuard } from './escape-guard.js';
export { ActivationError, inForeground, type ForegroundOptions, type ForegroundReport } from './foreground.js';
export { abortable } from './keystrokes.js';
export { keyboardGrabbedElsewhere } from './keyboard-grab.js';
export { pressCombination, pressKey, type KeyPressOptions, type KeyPressResult } from './keys.js';
export { canonicalKeyName, parseCombination, type ModifierName, type ParsedKey } from './keysyms.js';
export {
  click,
  drag,
  moveTo,
  arriveAt,
  pointerPosition,
  restorePointer,
  maxWheelNotches,
  wheel,
  type ButtonName,
  type ClickOptions,
  type DragOptions,
  type WheelDirection,
  type WheelOptions,
} from './pointer.js';
export { syntheticClick, syntheticWheel } from './synthetic-input.js';
export { charactersWithoutKey, NoKeyOnLayout, syntheticCombination, syntheticText } from './synthetic-keys.js';
export { typeText, type TypeTextOptions, type TypeTextResult } from './typing.js';
export { windowAt, type WindowAtPoint } from './window-at.js';
export { activateWindow, activeWindow, isActive, raiseWindow, restoreActivation, type ActivateOptions } from './windows.js';
