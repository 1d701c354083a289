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
 * A failure in the shape every adapter prints: ok=false with the message as the summary. Kept apart from
 * the registry so the daemon's thin client can build one without loading every tool.
 */
export function failureResult(failure: 'usage' | 'tool', message: string, code: string, details: Record<string, unknown> = {}): ToolCallResult {
  return { ok: false, failure, summary: message, images: [], structured: { error: { code, message, ...details } } };
}
