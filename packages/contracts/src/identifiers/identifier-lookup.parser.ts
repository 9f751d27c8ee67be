import { EXTERNAL_IDENTIFIER_TYPES } from '../schemas/enums.schema';
import { canonicalUuid } from '../validation/uuid';
import { type ValidationIssue } from '../validation/validation-issue';

/** At most this many identifiers per lookup (§7.2). */
export const MAX_LOOKUP_IDENTIFIERS = 100;

// Lookup strings of `GET /references/?identifier=` (§6.4, §7.2).

export type IdentifierLookup =
  | { kind: 'reference_id'; reference_id: string }
  | { kind: 'identifier'; identifier_type: Exclude<(typeof EXTERNAL_IDENTIFIER_TYPES)[number], 'other'>; identifier: string }
  | { kind: 'identifier'; identifier_type: 'other'; identifier: string; other_identifier_name: string };

export type ParsedIdentifierLookup = { ok: true; lookup: IdentifierLookup } | { ok: false; message: string };

const TYPED = new Set<string>(EXTERNAL_IDENTIFIER_TYPES.filter((type) => type !== 'other'));

function invalid(text: string, reason: string): ParsedIdentifierLookup {
  return { ok: false, message: `Invalid identifier lookup string: ${text}. ${reason}` };
}

/** Parses `<uuid>`, `<type>:<value>` or `other:<name>:<value>`; errors carry the exact 400 detail. */
export function parseIdentifierLookup(text: string): ParsedIdentifierLookup {
  const colon = text.indexOf(':');
  if (colon === -1) {
    const id = canonicalUuid(text);
    if (id === null) return invalid(text, 'Must be UUID if no identifier type is specified.');
    return { ok: true, lookup: { kind: 'reference_id', reference_id: id } };
  }
  const type = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (type === 'other') {
    const second = rest.indexOf(':');
    if (second === -1) return invalid(text, 'Other identifier type must include other identifier name.');
    return {
      ok: true,
      lookup: { kind: 'identifier', identifier_type: 'other', other_identifier_name: rest.slice(0, second), identifier: rest.slice(second + 1) },
    };
  }
  if (!TYPED.has(type)) return invalid(text, `Unknown identifier type: ${type}.`);
  return {
    ok: true,
    lookup: { kind: 'identifier', identifier_type: type as Exclude<(typeof EXTERNAL_IDENTIFIER_TYPES)[number], 'other'>, identifier: rest },
  };
}

/** `identifier` given once is split on commas; given repeatedly, each value is one entry (§7.2). */
export function splitLookupIdentifiers(values: string | readonly string[]): string[] {
  const list = typeof values === 'string' ? [values] : [...values];
  return list.length === 1 ? list[0].split(',') : list;
}

/**
 * Splits the `identifier` query values and enforces the 100-entry limit (§7.2): more is a 422
 * whose issue reads like pydantic's list-length error.
 */
export function lookupIdentifiersFromQuery(values: string | readonly string[]): { ok: true; identifiers: string[] } | { ok: false; issue: ValidationIssue } {
  const identifiers = splitLookupIdentifiers(values);
  if (identifiers.length <= MAX_LOOKUP_IDENTIFIERS) return { ok: true, identifiers };
  return {
    ok: false,
    issue: {
      type: 'too_long',
      loc: ['query', 'identifier'],
      msg: `List should have at most ${MAX_LOOKUP_IDENTIFIERS} items after validation, not ${identifiers.length}`,
      input: identifiers,
      ctx: { field_type: 'List', max_length: MAX_LOOKUP_IDENTIFIERS, actual_length: identifiers.length },
    },
  };
}
