// Input normalisation of external identifiers (contract §6.3), applied before validation.

/** DOI steps 1–6 of §6.3; the case of the DOI itself is preserved. */
export function normaliseDoi(value: string): string {
  let doi = value.normalize('NFC');
  doi = doi.replace(/\u00a0/g, ' ').replace(/\u2010/g, '-');
  doi = doi.trim();
  doi = doi.replace(/^(?:https?:\/\/)?(?:dx\.)?doi\.org\//i, '');
  doi = doi.replace(/^doi:\s*/i, '');
  return doi.trim();
}

function stripPrefixes(value: string, prefixes: readonly string[]): string {
  let result = value;
  for (const prefix of prefixes) {
    if (result.startsWith(prefix)) result = result.slice(prefix.length);
  }
  return result;
}

export function normaliseOpenAlex(value: string): string {
  return stripPrefixes(value, ['http://', 'https://', 'openalex.org/', 'explore.openalex.org/', 'works/']).trim();
}

export function normaliseEric(value: string): string {
  const stripped = stripPrefixes(value, ['http://', 'https://', 'eric.ed.gov/?id=', 'files.eric.ed.gov/fulltext/']);
  return (stripped.endsWith('.pdf') ? stripped.slice(0, -'.pdf'.length) : stripped).trim();
}

export function normaliseProQuest(value: string): string {
  return stripPrefixes(value, ['http://', 'https://', 'search.proquest.com/', 'www.proquest.com/', 'docview/']).trim();
}

/** pm_id: numeric strings and integral floats become integers; anything else is left to validation. */
export function coercePmId(value: unknown): unknown {
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) {
    const parsed = Number(value.trim());
    return Number.isSafeInteger(parsed) ? parsed : value;
  }
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  return value;
}

/** The key order identifiers are emitted in (§6.3). */
export const IDENTIFIER_KEY_ORDER = ['identifier', 'identifier_type', 'other_identifier_name'] as const;

/**
 * Moves the identifier keys, in place, into the §6.3 order (the object stays the same one: Ajv
 * goes on validating it). Other keys end up first; validation drops them.
 */
function orderIdentifierKeysInPlace(record: Record<string, unknown>): void {
  let expected = 0;
  let ordered = true;
  for (const key in record) {
    const position = (IDENTIFIER_KEY_ORDER as readonly string[]).indexOf(key);
    if (position === -1) continue;
    if (position < expected) {
      ordered = false;
      break;
    }
    expected = position;
  }
  if (ordered) return;
  for (const key of IDENTIFIER_KEY_ORDER) {
    if (!(key in record)) continue;
    const value = record[key];
    delete record[key];
    record[key] = value;
  }
}

/**
 * Normalises the `identifier` of an identifier object in place according to its
 * `identifier_type`, puts its keys in the §6.3 order and returns the object; non-objects are
 * returned unchanged.
 */
export function normaliseExternalIdentifierInPlace(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const record = raw as Record<string, unknown>;
  orderIdentifierKeysInPlace(record);
  const value = record.identifier;
  switch (record.identifier_type) {
    case 'doi':
      if (typeof value === 'string') record.identifier = normaliseDoi(value);
      break;
    case 'pm_id':
      record.identifier = coercePmId(value);
      break;
    case 'open_alex':
      if (typeof value === 'string') record.identifier = normaliseOpenAlex(value);
      break;
    case 'eric':
      if (typeof value === 'string') record.identifier = normaliseEric(value);
      break;
    case 'pro_quest':
      if (typeof value === 'string') record.identifier = normaliseProQuest(value);
      break;
    default:
      break;
  }
  return raw;
}

/** Bibliographic pagination fields: U+00A0 → space, trimmed, empty → null (§6.6). */
export function normalisePaginationValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const cleaned = value.replace(/\u00a0/g, ' ').trim();
  return cleaned === '' ? null : cleaned;
}

export const PAGINATION_FIELDS = ['volume', 'issue', 'first_page', 'last_page'] as const;

/** Normalises a pagination object in place and returns it. */
export function normalisePaginationInPlace(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const record = raw as Record<string, unknown>;
  for (const field of PAGINATION_FIELDS) {
    if (field in record) record[field] = normalisePaginationValue(record[field]);
  }
  return raw;
}
