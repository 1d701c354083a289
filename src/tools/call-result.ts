import type { ErrorCode } from '../errors.js';
import type { ToolImage } from './tool.js';

/** The outcome of one tool call, shared by every adapter (MCP, CLI, daemon). */
export interface ToolCallResult {
  ok: boolean;
  /** Why the call failed: a usage problem (unknown tool, bad arguments) or a tool error. */
  failure?: 'usage' | 'tool';
  summary: string;
  body?: string;
  images: ToolImage[];
  structured: Record<string, unknown>;
  /** Things the caller should be told on stderr that happened on the way (e.g. a desktop was started for it). */
  notices?: string[];
}

/**
 * A failure in the shape every adapter sends: ok=false with the message as the summary, and
 * `{error: <code>, message, ...details}` as the structured fields (MCP structuredContent, CLI --json, the
 * daemon's reply alike). Kept apart from the registry so the daemon's thin client can build one without
 * loading every tool.
 */
export function failureResult(failure: 'usage' | 'tool', message: string, code: ErrorCode, details: Record<string, unknown> = {}): ToolCallResult {
  return { ok: false, failure, summary: message, images: [], structured: { ...details, error: code, message } };
}

/** The text every adapter shows: the summary, then the body; a failure starts with its code. */
export function resultText(result: ToolCallResult): string {
  const text = result.body ? `${result.summary}\n\n${result.body}` : result.summary;
  return result.ok ? text : `error [${errorCodeOf(result)}]: ${text}`;
}

/** The code of a failed call's result. */
export function errorCodeOf(result: ToolCallResult): string | undefined {
  return result.ok ? undefined : (result.structured.error as string | undefined);
}

/** The result with a warning added: a ⚠️ line after the summary, and in `warnings`. */
export function withWarning(result: ToolCallResult, warning: string): ToolCallResult {
  const warnings = [...((result.structured.warnings as string[] | undefined) ?? []), warning];
  return { ...result, summary: `${result.summary}\n⚠️ ${warning}`, structured: { ...result.structured, warnings } };
}
