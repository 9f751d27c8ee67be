import { Type, type SchemaOptions, type Static, type TObject, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { registerSchemaNormaliser } from '../validation/schema-rules';
import { canonicalUuid } from '../validation/uuid';

// Building blocks shared by every wire schema. Formats are the contract's own (registered on the
// shared Ajv): `destiny-uuid`, `http-url`, `iso-duration`, `date`, `date-time`.

/** A string enum as JSON Schema `enum` (lower-case wire values, contract D2). */
export function StringEnum<const V extends readonly string[]>(values: V, options: SchemaOptions = {}): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ ...options, type: 'string', enum: [...values] });
}

/** A string enum that also admits null. */
export function NullableStringEnum<const V extends readonly string[]>(values: V, options: SchemaOptions = {}): TUnsafe<V[number] | null> {
  return Type.Unsafe<V[number] | null>({ ...options, type: ['string', 'null'], enum: [...values, null] });
}

/**
 * `T | null`. A schema with a single `type` gets the type list `[type, "null"]` (and `null` in its
 * `enum`), so Ajv still applies the defaults inside it and reports the value's own errors; other
 * schemas become `anyOf [T, null]`.
 */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T> | null> {
  const record = schema as Record<string, unknown>;
  if (typeof record.type === 'string') {
    const nullable: Record<string, unknown> = { ...schema, ...options, type: [record.type, 'null'] };
    if (Array.isArray(record.enum)) nullable.enum = [...(record.enum as unknown[]), null];
    return Type.Unsafe<Static<T> | null>(nullable);
  }
  return Type.Unsafe<Static<T> | null>({ ...options, anyOf: [schema, { type: 'null' }] });
}

registerSchemaNormaliser('uuid', (value) => canonicalUuid(value) ?? value);

/**
 * A DESTINY UUID (§1.2): lenient input forms (case, braces, `urn:uuid:`, bare hex), version 4 or
 * 7; a valid value is rewritten to its lowercase canonical form before it reaches the service.
 */
export function Uuid(options: SchemaOptions = {}) {
  return Type.String({ format: 'destiny-uuid', 'x-destiny-normalise': 'uuid', ...options });
}

/**
 * Any UUID, of any version, for an id that is read and then ignored (an import line's own `id`,
 * §8.5): the reference implementation parses it as a plain `UUID | None`, so no version is refused.
 */
export function AnyUuid(options: SchemaOptions = {}) {
  return Type.String({ format: 'any-uuid', ...options });
}

/** http(s) URL with a host, at most 2083 characters (§16). */
export function HttpUrl(options: SchemaOptions = {}) {
  return Type.String({ format: 'http-url', ...options });
}

/** ISO 8601 datetime; offset-less values are UTC (§1.3). */
export function DateTime(options: SchemaOptions = {}) {
  return Type.String({ format: 'date-time', ...options });
}

/** `YYYY-MM-DD`. */
export function DateOnly(options: SchemaOptions = {}) {
  return Type.String({ format: 'date', ...options });
}

/** ISO 8601 duration with upper-case designators, e.g. `PT10M` (§1.3). */
export function IsoDuration(options: SchemaOptions = {}) {
  return Type.String({ format: 'iso-duration', ...options });
}

/**
 * Options of an input object whose unknown keys are ignored (§1.4): validation drops every key
 * the schema does not declare, so it is neither stored nor echoed. Objects that must reject
 * unknown keys (robot models, strict top levels) say `additionalProperties: false` instead.
 */
export const DROP_UNKNOWN_KEYS = { 'x-destiny-unknown-keys': 'drop' } as const;

/** Any JSON object. */
export function JsonObject(options: SchemaOptions = {}) {
  return Type.Record(Type.String(), Type.Unknown(), options);
}

/**
 * A union discriminated by a mandatory tag property (§1.4): Ajv's `discriminator` picks the
 * variant, so errors are those of the chosen variant, or one `union_tag_*` issue.
 */
export function DiscriminatedUnion<const V extends TObject[]>(
  propertyName: string,
  variants: [...V],
  options: SchemaOptions = {},
): TUnsafe<Static<V[number]>> {
  return Type.Unsafe<Static<V[number]>>({ ...options, type: 'object', discriminator: { propertyName }, oneOf: variants });
}

/** Marks a schema with a named rule of `validation/schema-rules.ts` (run by the shared Ajv). */
export function withCheck<T extends TSchema>(schema: T, check: string): T {
  return { ...schema, 'x-destiny-check': check };
}

/** Marks a schema with a named normaliser applied before validation. */
export function withNormaliser<T extends TSchema>(schema: T, normaliser: string): T {
  return { ...schema, 'x-destiny-normalise': normaliser };
}

/** The same schema with a `default` (Ajv fills it in when the key is absent). */
export function withDefault<T extends TSchema>(schema: T, value: Static<T>): T {
  return { ...schema, default: value };
}
