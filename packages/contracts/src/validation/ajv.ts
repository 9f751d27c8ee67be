import Ajv, { _, type AnySchema, type ErrorObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import { not, or } from 'ajv/dist/compile/codegen';
import { type DataValidationCxt } from 'ajv/dist/types';
import addFormats from 'ajv-formats';
import { isIsoDate, isIsoDateTime } from './date-formats';
import { isHttpUrl } from './http-url';
import { isIsoDuration } from './iso-duration';
import { schemaCheck, schemaNormaliser } from './schema-rules';
import { isDestinyUuid, parseUuidAnyVersion } from './uuid';

/** The one Ajv instance of the whole system (contract formats and rules registered once). */
export const ajv = new Ajv({
  allErrors: true,
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
  // TypeBox only adds symbol keys, but schemas also carry OpenAPI-only words (discriminator
  // mapping hints, descriptions); strict mode would reject harmless annotations.
  strict: false,
  discriminator: true,
  verbose: true,
  // NaN and ±Infinity are no JSON numbers (JSON.parse turns 1e400 into Infinity).
  strictNumbers: true,
});

addFormats(ajv, { mode: 'fast', formats: ['email', 'uri', 'hostname', 'ipv4', 'ipv6', 'time'] });
ajv.addFormat('destiny-uuid', { type: 'string', validate: isDestinyUuid });
ajv.addFormat('any-uuid', { type: 'string', validate: (value: string) => parseUuidAnyVersion(value) !== null });
ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
ajv.addFormat('iso-duration', { type: 'string', validate: isIsoDuration });
ajv.addFormat('date', { type: 'string', validate: isIsoDate });
ajv.addFormat('date-time', { type: 'string', validate: isIsoDateTime });

ajv.addKeyword({
  keyword: 'x-destiny-normalise',
  schemaType: 'string',
  modifying: true,
  errors: false,
  validate(name: string, data: unknown, _parentSchema?: AnySchema, cxt?: DataValidationCxt): boolean {
    const normalised = schemaNormaliser(name)(data);
    if (normalised !== data && cxt !== undefined && cxt.parentData !== undefined) {
      (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = normalised;
    }
    return true;
  },
});

interface CheckValidateFunction {
  (name: string, data: unknown, parentSchema?: AnySchema, cxt?: DataValidationCxt): boolean;
  errors?: Partial<ErrorObject>[];
}

const runCheck: CheckValidateFunction = (name, data, _parentSchema, cxt) => {
  const issues = schemaCheck(name)(data);
  if (issues.length === 0) return true;
  const base = cxt?.instancePath ?? '';
  runCheck.errors = issues.map((issue) => ({
    keyword: 'x-destiny-check',
    instancePath: base + (issue.path ?? []).map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
    message: issue.msg,
    params: { issue },
  }));
  return false;
};

ajv.addKeyword({ keyword: 'x-destiny-check', schemaType: 'string', errors: true, validate: runCheck });

ajv.addKeyword({
  keyword: 'x-destiny-cap',
  schemaType: 'number',
  modifying: true,
  errors: false,
  validate(cap: number, data: unknown, _parentSchema?: AnySchema, cxt?: DataValidationCxt): boolean {
    if (typeof data === 'number' && data > cap && cxt !== undefined && cxt.parentData !== undefined) {
      (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = cap;
    }
    return true;
  },
});

// `x-destiny-unknown-keys: "drop"` (DROP_UNKNOWN_KEYS): keys outside the object's `properties` are
// deleted. Not Ajv's removeAdditional, which is instance-wide and would also strip the keys that
// robot models and strict top levels must reject. Generated inline (as Ajv's own removal is), so
// a validated object costs no call or context allocation.
ajv.addKeyword({
  keyword: 'x-destiny-unknown-keys',
  type: 'object',
  schemaType: 'string',
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const known = Object.keys((cxt.parentSchema.properties as object | undefined) ?? {});
    gen.forIn('key', data, (key) => {
      const isKnown = known.length === 0 ? _`false` : or(...known.map((name) => _`${key} === ${name}`));
      gen.if(not(isKnown), () => gen.code(_`delete ${data}[${key}]`));
    });
  },
});

// Compiled validators, one per schema object (schemas are module-level constants).
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Ajv sees a copy without `$id`s (ids only name components for OpenAPI and must not collide) in
 * which every integer without its own bounds is held to the safe range: beyond it a JavaScript
 * number no longer holds the integer sent (9007199254740993 parses as …992), and Elasticsearch's
 * long overflows, so such a value is refused instead of stored changed.
 */
function withoutIds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutIds(item));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id') continue;
    // `default` and `const`/`enum` values are data, not schemas.
    copy[key] = key === 'default' || key === 'const' || key === 'enum' || key === 'examples' ? value : withoutIds(value);
  }
  // A capped value (`x-destiny-cap`) is brought down to its cap, not refused; bounds leave `null` alone.
  const integer = copy.type === 'integer' || (Array.isArray(copy.type) && copy.type.includes('integer') && !copy.type.includes('number'));
  if (integer && copy['x-destiny-cap'] === undefined) {
    if (copy.maximum === undefined && copy.exclusiveMaximum === undefined) copy.maximum = Number.MAX_SAFE_INTEGER;
    if (copy.minimum === undefined && copy.exclusiveMinimum === undefined) copy.minimum = Number.MIN_SAFE_INTEGER;
  }
  return copy;
}

export function compileSchema(schema: object): ValidateFunction {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    validator = ajv.compile(withoutIds(schema) as AnySchema);
    compiled.set(schema, validator);
  }
  return validator;
}
