// Rules JSON Schema cannot express (duplicate ids, "exactly one of", truthiness, …) and input
// normalisers applied before validation (DOI clean-up, pm_id coercion, pagination). Schemas name
// them with the keywords `x-destiny-check` / `x-destiny-normalise`; the shared Ajv runs them
// wherever the schema appears, nested or not.

/** A rule violation, phrased like a pydantic error item (loc relative to the checked value). */
export interface RuleIssue {
  type: string;
  msg: string;
  /** Path below the checked value, e.g. `['reference_ids']`; empty = the value itself. */
  path?: (string | number)[];
  ctx?: Record<string, unknown>;
  input?: unknown;
}

/** Returns the issues found in `value` (empty when it satisfies the rule). */
export type SchemaCheck = (value: unknown) => RuleIssue[];

/** Returns the normalised value (or the same value when nothing applies). Must be idempotent. */
export type SchemaNormaliser = (value: unknown) => unknown;

const checks = new Map<string, SchemaCheck>();
const normalisers = new Map<string, SchemaNormaliser>();

export function registerSchemaCheck(name: string, check: SchemaCheck): void {
  checks.set(name, check);
}

export function registerSchemaNormaliser(name: string, normaliser: SchemaNormaliser): void {
  normalisers.set(name, normaliser);
}

export function schemaCheck(name: string): SchemaCheck {
  const check = checks.get(name);
  if (check === undefined) throw new Error(`unknown x-destiny-check rule: ${name}`);
  return check;
}

export function schemaNormaliser(name: string): SchemaNormaliser {
  const normaliser = normalisers.get(name);
  if (normaliser === undefined) throw new Error(`unknown x-destiny-normalise rule: ${name}`);
  return normaliser;
}

/** A pydantic `ValueError` raised by a validator: `type` value_error, `msg` "Value error, …". */
export function valueError(message: string, path: (string | number)[] = []): RuleIssue {
  return { type: 'value_error', msg: `Value error, ${message}`, path, ctx: { error: {} } };
}
