import { bringToFront, killApp, launchApp } from './apps/app-tools.js';
import { getConfig, setConfig } from './config/config-tools.js';
import { click, doubleClick, rightClick } from './input/click-tools.js';
import { drag } from './input/drag.js';
import { hover } from './input/hover.js';
import { hotkey, pressKey } from './input/key-tools.js';
import { moveCursor } from './input/move-cursor.js';
import { getAgentCursorState, setAgentCursorEnabled, setAgentCursorMotion, setAgentCursorStyle } from './cursor/cursor-tools.js';
import { getRecordingState, installFfmpeg, startRecording, stopRecordingTool } from './recording/recording-tools.js';
import { replayTrajectory } from './recording/replay.js';
import { scroll } from './input/scroll.js';
import { setValueTool } from './input/set-value.js';
import { typeText } from './input/type-text.js';
import { getAccessibilityTree } from './perception/get-accessibility-tree.js';
import { findElements } from './perception/find-elements.js';
import { getWindowState } from './perception/get-window-state.js';
import { listApps } from './perception/list-apps.js';
import { listWindows } from './perception/list-windows.js';
import { getCursorPosition, getScreenSize } from './perception/screen-info.js';
import { waitFor } from './perception/wait-for.js';
import { zoom } from './perception/zoom.js';
import { pageTool } from './page/page-tool.js';
import { runActions } from './plan/run-actions.js';
import { sessionTools } from './session/session-tools.js';
import { clipboardRead, clipboardWrite } from './clipboard/clipboard-tools.js';
import { setWindowFrame } from './apps/set-window-frame.js';
import { invokeMenu } from './input/invoke-menu.js';
import { mouseButtonTools } from './input/mouse-buttons.js';
import { healthTools } from './health/health-tools.js';
import { terminalTools } from './terminal/index.js';
import type { ToolDefinition } from './tool.js';

/**
 * A tool with its argument types erased. Handlers are contravariant in their arguments, so differently
 * typed tools only share a list in this form; runTool parses arguments with the tool's own schema before
 * the handler sees them, which is what keeps this safe.
 */
// biome-ignore lint/suspicious/noExplicitAny: see the comment above.
export type AnyTool = ToolDefinition<any, any>;

/** Every tool, declared once; the MCP server, the CLI and the daemon all serve exactly this list. */
export const tools: readonly AnyTool[] = [
  listApps,
  listWindows,
  getWindowState,
  findElements,
  waitFor,
  getAccessibilityTree,
  getScreenSize,
  getCursorPosition,
  zoom,
  getConfig,
  setConfig,
  click,
  doubleClick,
  rightClick,
  drag,
  hover,
  typeText,
  pressKey,
  hotkey,
  setValueTool,
  scroll,
  moveCursor,
  setAgentCursorEnabled,
  setAgentCursorMotion,
  setAgentCursorStyle,
  getAgentCursorState,
  runActions,
  launchApp,
  killApp,
  bringToFront,
  pageTool,
  startRecording,
  stopRecordingTool,
  getRecordingState,
  replayTrajectory,
  installFfmpeg,
  ...terminalTools,
  ...sessionTools,
  clipboardRead,
  clipboardWrite,
  setWindowFrame,
  invokeMenu,
  ...mouseButtonTools,
  ...healthTools,
];

const byName = new Map(tools.map((tool) => [tool.name, tool]));

/** Also accepts dotted names (tui.start for tui_start), the form the CLI and older clients use. */
export function findTool(name: string): AnyTool | undefined {
  return byName.get(name) ?? byName.get(name.replaceAll('.', '_'));
}

export function toolNames(): string[] {
  return tools.map((tool) => tool.name);
}
