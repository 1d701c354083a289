// Schema validation of envelopes against schema/cup.schema.json (draft 2020-12).
// The schema is imported as a JSON module: tsc copies it to dist/schema/, so the import resolves
// from dist/src/cup/ at run time without any file reading here.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import schema from '../../schema/cup.schema.json' with { type: 'json' };

export interface ValidationResult {
  valid: boolean;
  /** One line per problem: `<instance path>: <message>`, the root path written as `/`. */
  errors: string[];
}

// allErrors lists every problem at once; verbose gives each error the offending value for "(got ...)".
const ajv = new Ajv2020({ allErrors: true, verbose: true });
const validateSchema = ajv.compile(schema);

export function validateEnvelope(value: unknown): ValidationResult {
  if (validateSchema(value)) return { valid: true, errors: [] };
  return { valid: false, errors: (validateSchema.errors ?? []).map(describeError) };
}

function describeError(error: ErrorObject): string {
  const path = error.instancePath || '/';
  const message = error.message ?? error.keyword;
  const got = offendingValue(error);
  return got === undefined ? `${path}: ${message}` : `${path}: ${message} (got ${got})`;
}

/** The value worth echoing back: an unexpected property's name, or a primitive that failed a check. */
function offendingValue(error: ErrorObject): string | undefined {
  if (error.keyword === 'additionalProperties') {
    return JSON.stringify((error.params as { additionalProperty: string }).additionalProperty);
  }
  const data: unknown = error.data;
  if (data !== null && typeof data === 'object') return undefined;
  return JSON.stringify(data);
}
