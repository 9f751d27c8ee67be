import { type Static, type TSchema } from '@sinclair/typebox';
import { compileSchema } from './ajv';
import { applyLaxReadings, laxScalar } from './lax-coercion';
import { schemaNormaliser } from './schema-rules';
import { toValidationIssues, type ValidationIssue, type ValidationLocation } from './validation-issue';

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationIssue[] };

interface PropertySchema {
  type?: string | string[];
  items?: PropertySchema;
}

function primaryType(schema: PropertySchema | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const types = Array.isArray(schema.type) ? schema.type.filter((type) => type !== 'null') : [schema.type];
  return types[0];
}

/** Query/path text → the JSON type the schema asks for (pydantic's lax string parsing); text it cannot read stays text. */
function coerceScalar(text: string, type: string | undefined): unknown {
  const reading = type === undefined ? undefined : laxScalar(text, type);
  return reading === undefined ? text : reading;
}

/**
 * Query strings and path segments arrive as text (a repeated key as an array of texts). Convert
 * them to the types the schema's properties declare; a repeated key for a scalar keeps the last
 * value, as FastAPI does. Unconvertible text is left for Ajv to report.
 */
function coerceTextParameters(schema: TSchema, raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const properties = ((schema as { properties?: Record<string, PropertySchema> }).properties ?? {});
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (value === undefined) continue;
    const property = properties[key];
    const type = primaryType(property);
    if (type === 'array') {
      const items = Array.isArray(value) ? value : [value];
      result[key] = items.map((item) => (typeof item === 'string' ? coerceScalar(item, primaryType(property?.items)) : item));
    } else {
      const scalar = Array.isArray(value) ? value[value.length - 1] : value;
      result[key] = typeof scalar === 'string' ? coerceScalar(scalar, type) : scalar;
    }
  }
  return result;
}

/**
 * Validates `value` against a contract schema with the shared Ajv: defaults are filled in and
 * normalisers applied (the input object is modified in place and returned as `value`). Query and
 * path parameters are first converted from text. Failures come back as FastAPI-style issues whose
 * `loc` starts with `location`.
 */
export function validate<S extends TSchema>(schema: S, value: unknown, location: ValidationLocation): ValidationResult<Static<S>> {
  let input = location === 'query' || location === 'path' ? coerceTextParameters(schema, value) : value;
  // A normaliser can only rewrite a value through its parent, so a normalised root is done here.
  const rootNormaliser = (schema as { 'x-destiny-normalise'?: unknown })['x-destiny-normalise'];
  if (typeof rootNormaliser === 'string') input = schemaNormaliser(rootNormaliser)(input);
  const validator = compileSchema(schema);
  if (validator(input)) return { ok: true, value: input as Static<S> };
  // Strict first, so valid input pays nothing; then once more with what pydantic's lax mode would
  // have read from the values that failed (text for numbers, Unix times for datetimes, …).
  const lax = applyLaxReadings(input, validator.errors ?? []);
  if (lax !== undefined) {
    input = lax.root;
    if (validator(input)) return { ok: true, value: input as Static<S> };
  }
  return { ok: false, errors: toValidationIssues(validator.errors ?? [], location, input) };
}

/** Like `validate`, but throws a `ContractValidationError` (for trusted, internal data). */
export function assertValid<S extends TSchema>(schema: S, value: unknown, location: ValidationLocation = 'body'): Static<S> {
  const result = validate(schema, value, location);
  if (!result.ok) throw new ContractValidationError(result.errors);
  return result.value;
}

export class ContractValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(`contract validation failed: ${issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ')}`);
    this.name = 'ContractValidationError';
  }
}
