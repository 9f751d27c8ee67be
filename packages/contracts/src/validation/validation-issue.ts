import { type ErrorObject } from 'ajv';
import { httpUrlProblem, MAX_URL_LENGTH } from './http-url';
import { type RuleIssue } from './schema-rules';
import { parseUuidAnyVersion } from './uuid';

export type ValidationLocation = 'body' | 'query' | 'path' | 'line';

/** One item of a FastAPI-style 422 `detail` list (contract §1.5). */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** pydantic's rendering of expected values: `'a', 'b' or 'c'`. */
export function pydanticExpected(values: readonly unknown[]): string {
  const quoted = values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function decodePointer(pointer: string, root: unknown): (string | number)[] {
  if (pointer === '') return [];
  const segments: (string | number)[] = [];
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(segment)) {
      segments.push(Number(segment));
      node = node[Number(segment)];
    } else {
      segments.push(segment);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
    }
  }
  return segments;
}

type Mapped = Omit<ValidationIssue, 'loc'> & { extraLoc?: (string | number)[] };

function typeIssue(error: ErrorObject): Mapped {
  const expected = String(error.params.type).split(',').filter((type) => type !== 'null');
  const input = error.data;
  // pydantic reports text that is not a number/boolean as a parsing failure wherever it appears.
  const fromText = typeof input === 'string';
  switch (expected[0]) {
    case 'string':
      return { type: 'string_type', msg: 'Input should be a valid string', input };
    case 'integer':
      if (typeof input === 'number') {
        return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part', input };
      }
      return fromText
        ? { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer', input }
        : { type: 'int_type', msg: 'Input should be a valid integer', input };
    case 'number':
      return fromText
        ? { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number', input }
        : { type: 'float_type', msg: 'Input should be a valid number', input };
    case 'boolean':
      return fromText
        ? { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input', input }
        : { type: 'bool_type', msg: 'Input should be a valid boolean', input };
    case 'object': {
      const isModel = error.parentSchema !== undefined && 'properties' in error.parentSchema;
      return isModel
        ? { type: 'model_attributes_type', msg: 'Input should be a valid dictionary or object to extract fields from', input }
        : { type: 'dict_type', msg: 'Input should be a valid dictionary', input };
    }
    case 'array':
      return { type: 'list_type', msg: 'Input should be a valid list', input };
    default:
      return { type: 'none_required', msg: 'Input should be None', input };
  }
}

function formatIssue(error: ErrorObject): Mapped {
  const input = error.data;
  switch (error.params.format) {
    case 'destiny-uuid':
      if (parseUuidAnyVersion(input) !== null) {
        return { type: 'uuid_version', msg: 'UUID version 4 or 7 expected', input, ctx: { expected_version: '4 or 7' } };
      }
      return { type: 'uuid_parsing', msg: 'Input should be a valid UUID, unable to parse string as a UUID', input };
    case 'any-uuid':
      return { type: 'uuid_parsing', msg: 'Input should be a valid UUID, unable to parse string as a UUID', input };
    case 'http-url':
      switch (httpUrlProblem(input)) {
        case 'too_long':
          return { type: 'url_too_long', msg: `URL should have at most ${MAX_URL_LENGTH} characters`, input, ctx: { max_length: MAX_URL_LENGTH } };
        case 'scheme':
          return { type: 'url_scheme', msg: "URL scheme should be 'http' or 'https'", input, ctx: { expected_schemes: "'http' or 'https'" } };
        case 'no_host':
          return { type: 'url_parsing', msg: 'Input should be a valid URL, empty host', input, ctx: { error: 'empty host' } };
        case 'invalid_port':
          return { type: 'url_parsing', msg: 'Input should be a valid URL, invalid port number', input, ctx: { error: 'invalid port number' } };
        default:
          return { type: 'url_parsing', msg: 'Input should be a valid URL, relative URL without a base', input, ctx: { error: 'relative URL without a base' } };
      }
    case 'iso-duration':
      return { type: 'time_delta_parsing', msg: 'Input should be a valid timedelta, invalid ISO 8601 duration', input, ctx: { error: 'invalid ISO 8601 duration' } };
    case 'date':
      return { type: 'date_from_datetime_parsing', msg: 'Input should be a valid date or datetime, invalid date format', input, ctx: { error: 'invalid date format' } };
    case 'date-time':
      return { type: 'datetime_from_date_parsing', msg: 'Input should be a valid datetime or date, invalid datetime format', input, ctx: { error: 'invalid datetime format' } };
    default:
      return { type: 'value_error', msg: `Value error, must match format ${String(error.params.format)}`, input, ctx: { error: {} } };
  }
}

function mapError(error: ErrorObject, location: ValidationLocation): Mapped {
  const input = error.data;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        type: 'missing',
        msg: 'Field required',
        input: location === 'query' || location === 'path' ? null : input,
        extraLoc: [String(params.missingProperty)],
      };
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      return {
        type: 'extra_forbidden',
        msg: 'Extra inputs are not permitted',
        input: (input as Record<string, unknown>)[key],
        extraLoc: [key],
      };
    }
    case 'type':
      return typeIssue(error);
    case 'format':
      return formatIssue(error);
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).filter((value) => value !== null);
      const expected = pydanticExpected(allowed);
      return { type: 'enum', msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    case 'const': {
      const expected = pydanticExpected([params.allowedValue]);
      return { type: 'literal_error', msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    case 'minimum':
      return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${String(params.limit)}`, input, ctx: { ge: params.limit } };
    case 'exclusiveMinimum':
      return { type: 'greater_than', msg: `Input should be greater than ${String(params.limit)}`, input, ctx: { gt: params.limit } };
    case 'maximum':
      return { type: 'less_than_equal', msg: `Input should be less than or equal to ${String(params.limit)}`, input, ctx: { le: params.limit } };
    case 'exclusiveMaximum':
      return { type: 'less_than', msg: `Input should be less than ${String(params.limit)}`, input, ctx: { lt: params.limit } };
    case 'minLength':
      return {
        type: 'string_too_short',
        msg: `String should have at least ${plural(Number(params.limit), 'character')}`,
        input,
        ctx: { min_length: params.limit },
      };
    case 'maxLength':
      return {
        type: 'string_too_long',
        msg: `String should have at most ${plural(Number(params.limit), 'character')}`,
        input,
        ctx: { max_length: params.limit },
      };
    case 'minItems': {
      const actual = Array.isArray(input) ? input.length : 0;
      return {
        type: 'too_short',
        msg: `List should have at least ${plural(Number(params.limit), 'item')} after validation, not ${actual}`,
        input,
        ctx: { field_type: 'List', min_length: params.limit, actual_length: actual },
      };
    }
    case 'maxItems': {
      const actual = Array.isArray(input) ? input.length : 0;
      return {
        type: 'too_long',
        msg: `List should have at most ${plural(Number(params.limit), 'item')} after validation, not ${actual}`,
        input,
        ctx: { field_type: 'List', max_length: params.limit, actual_length: actual },
      };
    }
    case 'pattern':
      return { type: 'string_pattern_mismatch', msg: `String should match pattern '${String(params.pattern)}'`, input, ctx: { pattern: params.pattern } };
    case 'discriminator': {
      const tagName = String(params.tag);
      const tagValue = params.tagValue;
      const discriminator = `'${tagName}'`;
      if (tagValue === undefined || tagValue === null) {
        return { type: 'union_tag_not_found', msg: `Unable to extract tag using discriminator ${discriminator}`, input, ctx: { discriminator } };
      }
      const tags = discriminatorTags(error.parentSchema, tagName);
      const expected_tags = tags.map((tag) => `'${tag}'`).join(', ');
      return {
        type: 'union_tag_invalid',
        msg: `Input tag '${String(tagValue)}' found using ${discriminator} does not match any of the expected tags: ${expected_tags}`,
        input,
        ctx: { discriminator, tag: String(tagValue), expected_tags },
      };
    }
    case 'x-destiny-check': {
      const issue = params.issue as RuleIssue;
      // Ajv's verbose mode overwrites `data` with the checked value; the rule may name a sub-value.
      const issueInput = 'input' in issue ? issue.input : input;
      return { type: issue.type, msg: issue.msg, input: issueInput, ...(issue.ctx === undefined ? {} : { ctx: issue.ctx }) };
    }
    default:
      return { type: 'value_error', msg: `Value error, ${error.message ?? 'invalid value'}`, input, ctx: { error: {} } };
  }
}

function discriminatorTags(parentSchema: unknown, tagName: string): string[] {
  const oneOf = (parentSchema as { oneOf?: { properties?: Record<string, { const?: string; enum?: string[] }> }[] } | undefined)?.oneOf ?? [];
  return oneOf.flatMap((variant) => {
    const tag = variant.properties?.[tagName];
    if (tag?.const !== undefined) return [tag.const];
    return tag?.enum ?? [];
  });
}

/** The schema path of the schema an error's keyword belongs to. */
const schemaOf = (error: ErrorObject): string => error.schemaPath.slice(0, error.schemaPath.lastIndexOf('/'));

/**
 * Keeps the errors a pydantic user would see: for a failed `anyOf` (typically `T | null`), the
 * branch errors explain the failure, so the "must be null" and "must match anyOf" noise goes; a
 * non-string where an enum is expected is only pydantic's `enum` issue, not also `string_type`.
 */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const enumSchemas = new Set(errors.filter((error) => error.keyword === 'enum').map((error) => `${error.instancePath} ${schemaOf(error)}`));
  const withoutNullBranch = errors.filter(
    (error) =>
      !(error.keyword === 'type' && error.params.type === 'null' && /\/anyOf\/\d+\/type$/.test(error.schemaPath)) &&
      !(error.keyword === 'type' && enumSchemas.has(`${error.instancePath} ${schemaOf(error)}`)),
  );
  const explained = withoutNullBranch.filter((error) => {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') return true;
    return !withoutNullBranch.some(
      (other) => other !== error && other.keyword !== 'anyOf' && other.keyword !== 'oneOf' && (other.instancePath === error.instancePath || other.instancePath.startsWith(`${error.instancePath}/`)),
    );
  });
  // A rule is a pydantic "after" validator: it runs only on a value whose own validation passed.
  return explained.filter(
    (error) =>
      error.keyword !== 'x-destiny-check' ||
      !explained.some((other) => other.keyword !== 'x-destiny-check' && (other.instancePath === error.instancePath || other.instancePath.startsWith(`${error.instancePath}/`))),
  );
}

/** Translates Ajv errors into FastAPI-style issues whose `loc` starts with `location`. */
export function toValidationIssues(errors: ErrorObject[], location: ValidationLocation, root: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of relevantErrors(errors)) {
    const { extraLoc, ...mapped } = mapError(error, location);
    const loc = [location, ...decodePointer(error.instancePath, root), ...(extraLoc ?? [])];
    const issue: ValidationIssue = { type: mapped.type, loc, msg: mapped.msg, input: mapped.input === undefined ? null : mapped.input };
    if (mapped.ctx !== undefined) issue.ctx = mapped.ctx;
    const key = JSON.stringify([issue.type, issue.loc, issue.msg]);
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/** The issue FastAPI reports for a body that is not valid JSON. */
export function jsonInvalidIssue(position: number, error: string): ValidationIssue {
  return { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error } };
}

/** The issue FastAPI reports for a required body that is absent. */
export function missingBodyIssue(): ValidationIssue {
  return { type: 'missing', loc: ['body'], msg: 'Field required', input: null };
}

/** A one-line, human-readable summary of issues (for JSONL failure messages), e.g. `identifiers.0.identifier: Field required`. */
export function describeIssues(issues: ValidationIssue[]): string {
  return issues.map((issue) => `${issue.loc.slice(1).map(shortLocationPart).join('.') || '(root)'}: ${issue.msg}`).join('; ');
}

/** Longest key echoed whole in a description: an unknown key may be megabytes long, and its result would carry it. */
const MAX_ECHOED_KEY = 200;

function shortLocationPart(part: string | number): string | number {
  return typeof part === 'string' && part.length > MAX_ECHOED_KEY ? `${part.slice(0, MAX_ECHOED_KEY)}… (${part.length} characters)` : part;
}
