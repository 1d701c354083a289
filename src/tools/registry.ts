import { getConfig, setConfig } from './config/config-tools.js';
import { getAccessibilityTree } from './perception/get-accessibility-tree.js';
import { getWindowState } from './perception/get-window-state.js';
import { listApps } from './perception/list-apps.js';
import { listWindows } from './perception/list-windows.js';
import { getCursorPosition, getScreenSize } from './perception/screen-info.js';
import { zoom } from './perception/zoom.js';
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
  getAccessibilityTree,
  getScreenSize,
  getCursorPosition,
  zoom,
  getConfig,
  setConfig,
];

const byName = new Map(tools.map((tool) => [tool.name, tool]));

export function findTool(name: string): AnyTool | undefined {
  return byName.get(name);
}

export function toolNames(): string[] {
  return tools.map((tool) => tool.name);
}
