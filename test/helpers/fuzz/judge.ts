// What a fuzzed call's answer must be, judged without trusting the driver: the tool's published JSON Schema
// (checked by Ajv, an independent validator) says whether the arguments were valid, and the error codes of
// src/errors.ts are the only codes a refusal may carry.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ERROR_CODES } from '../../../src/errors.js';
import type { FuzzCall, JsonSchema, ToolSchema } from './calls.js';

/** How a call ended, as the caller saw it. */
export type Answer =
  | { kind: 'result'; isError: boolean; structured: Record<string, unknown> | undefined; text: string }
  | { kind: 'timeout'; afterMs: number }
  | { kind: 'transport'; message: string };

export type Outcome = 'ok' | `refused:${string}` | 'hang' | 'transport_error';

export interface Verdict {
  outcome: Outcome;
  /** The rules the answer broke; empty when it is a fine answer. */
  violations: string[];
  /** The schema accepted the arguments. */
  valid: boolean;
  /** Refusals whose message names none of the call's fields nor a value given: read them, a few are fine (a state the call found). */
  notes: string[];
}

export class SchemaOracle {
  private readonly validators = new Map<string, ValidateFunction>();
  constructor(tools: readonly ToolSchema[]) {
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    for (const tool of tools) this.validators.set(tool.name, ajv.compile(tool.inputSchema as object));
  }

  /** The offending top-level fields (unknown keys, missing ones, bad values) when the arguments break the schema. */
  check(tool: string, parsedArgs: unknown): { valid: boolean; fields: string[] } {
    const validate = this.validators.get(tool);
    if (!validate) return { valid: false, fields: [] };
    if (validate(parsedArgs)) return { valid: true, fields: [] };
    return { valid: false, fields: [...new Set((validate.errors ?? []).map(offendingField))] };
  }
}

function offendingField(error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1);
  if (segments.length > 0) return decodePointer(segments[0]!);
  if (error.keyword === 'additionalProperties') return String((error.params as { additionalProperty: string }).additionalProperty);
  if (error.keyword === 'required') return String((error.params as { missingProperty: string }).missingProperty);
  return '(arguments)';
}

function decodePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Codes a tool may answer for reasons of the desktop at that moment, not of the arguments. */
const CIRCUMSTANTIAL = new Set(['app_not_responding', 'window_gone', 'stale_element', 'no_accessibility', 'timeout', 'cancelled', 'session_unavailable', 'exited']);
/** Codes that report the session's state (no terminal started, no button held, an empty clipboard), which no argument caused. */
const STATEFUL = new Set(['no_driver', 'mouse_unavailable', 'no_button_held', 'clipboard_empty', 'no_zoom', 'already_started', 'too_many_sessions']);

/** A short form of a value as it could appear in a message: the first characters of a string, a number as written. */
function valueForms(value: unknown): string[] {
  if (typeof value === 'number') return [String(value), value.toLocaleString('en-US')];
  if (typeof value === 'string') {
    const head = value.slice(0, 12);
    return head.trim().length >= 3 ? [head] : [];
  }
  return [];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a refusal's message points at a field of the tool: its name (as a word, given or missing), or a value the call gave. */
export function namesAField(message: string, fields: readonly string[], args: Record<string, unknown>): boolean {
  const named = fields.some((field) => [field, field.replaceAll('_', ' ')].some((name) => new RegExp(`(^|[^A-Za-z0-9_])${escape(name)}($|[^A-Za-z0-9_])`).test(message)));
  return named || Object.values(args).some((value) => valueForms(value).some((form) => message.includes(form)));
}

export function judge(call: FuzzCall, check: { valid: boolean; fields: string[] }, answer: Answer, toolFields: readonly string[]): Verdict {
  const violations: string[] = [];
  const notes: string[] = [];
  if (answer.kind === 'timeout') return { outcome: 'hang', violations: [`no answer within ${answer.afterMs} ms`], valid: check.valid, notes };
  if (answer.kind === 'transport') return { outcome: 'transport_error', violations: [`transport: ${answer.message}`], valid: check.valid, notes };
  const code = typeof answer.structured?.error === 'string' ? answer.structured.error : undefined;
  const message = typeof answer.structured?.message === 'string' ? answer.structured.message : '';
  if (!answer.isError) {
    if (!check.valid) violations.push(`accepted arguments its schema refuses (fields ${check.fields.join(', ')})`);
    return { outcome: 'ok', violations, valid: check.valid, notes };
  }
  if (code === undefined || !Object.hasOwn(ERROR_CODES, code)) violations.push(`refusal without a known error code: ${JSON.stringify(code)}`);
  if (!message) violations.push('refusal without a message');
  if (!answer.text.startsWith(`error [${code}]: `)) violations.push('refusal text does not start with its code');
  if (code === 'internal_error') violations.push(`internal_error: ${message.slice(0, 300)}`);
  if (!check.valid && code !== 'unknown_tool') {
    // The schema names what is wrong; the refusal must say it too.
    if (code !== 'invalid_arguments') violations.push(`invalid arguments refused as ${code}, not invalid_arguments`);
    if (!check.fields.some((field) => message.includes(field))) violations.push(`message names none of the bad fields ${check.fields.map((f) => JSON.stringify(f.slice(0, 40))).join(', ')}`);
  } else if (code !== undefined && !CIRCUMSTANTIAL.has(code) && !STATEFUL.has(code) && !namesAField(message, toolFields, call.args)) {
    notes.push(`${code}: ${message.slice(0, 200)}`);
  }
  return { outcome: `refused:${code ?? '?'}`, violations, valid: check.valid, notes };
}

export type { JsonSchema };
