import { tuiChangesSince, tuiLastEvent, tuiRenderText, tuiSnapshot } from './inspect.js';
import { tuiClick, tuiFocus, tuiPress, tuiPressSequence, tuiType } from './input.js';
import { tuiCapabilities, tuiResize, tuiStart, tuiStop } from './lifecycle.js';
import { tuiCount, tuiExpect, tuiQuery, tuiQueryAll } from './query.js';
import { tuiScreenshot } from './screenshot.js';
import { tuiWaitFor } from './wait.js';

/** The tui_* tools, in the order tools/list shows them. */
export const terminalTools = [
  tuiCapabilities,
  tuiStart,
  tuiStop,
  tuiResize,
  tuiSnapshot,
  tuiChangesSince,
  tuiQuery,
  tuiQueryAll,
  tuiCount,
  tuiExpect,
  tuiLastEvent,
  tuiRenderText,
  tuiScreenshot,
  tuiPress,
  tuiPressSequence,
  tuiType,
  tuiFocus,
  tuiClick,
  tuiWaitFor,
] as const;
