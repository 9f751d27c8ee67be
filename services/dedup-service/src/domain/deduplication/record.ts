// The engine's view of a reference: the bibliographic fields it compares, taken from a
// deduplicated-view-shaped reference (contract §6.1, §6.6).

export interface DedupRecord {
  id: string;
  title: string | null;
  authors: string[];
  year: number | null;
  venue: string | null;
  volume: string | null;
  issue: string | null;
  pages: string | null;
  doi: string | null;
  identifiers: Array<{ type: string; value: string; name: string | null }>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\u00a0/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

const POSITION_ORDER: Record<string, number> = { first: 0, middle: 1, last: 2 };

function authorsOf(content: Json): string[] {
  const authorship = content.authorship;
  if (!Array.isArray(authorship)) return [];
  return authorship
    .map((author, index) => ({ author, index }))
    .filter((entry): entry is { author: Json; index: number } => isObject(entry.author) && text(entry.author.display_name) !== null)
    .sort((a, b) => (POSITION_ORDER[String(a.author.position)] ?? 1) - (POSITION_ORDER[String(b.author.position)] ?? 1) || a.index - b.index)
    .map((entry) => text(entry.author.display_name) as string);
}

function yearOf(content: Json): number | null {
  const year = content.publication_year;
  if (typeof year === 'number' && Number.isInteger(year)) return year;
  const date = text(content.publication_date);
  const match = date ? /^(\d{4})/.exec(date) : null;
  return match ? Number(match[1]) : null;
}

function pagesOf(pagination: Json): string | null {
  const first = text(pagination.first_page);
  const last = text(pagination.last_page);
  if (first && last) return first === last ? first : `${first}-${last}`;
  return first ?? last;
}

interface Field<T> {
  read: (content: Json) => T | null;
}

const FIELDS = {
  title: { read: (content) => text(content.title) } as Field<string>,
  authors: { read: (content) => { const authors = authorsOf(content); return authors.length > 0 ? authors : null; } } as Field<string[]>,
  year: { read: yearOf } as Field<number>,
  venue: { read: (content) => (isObject(content.publication_venue) ? text(content.publication_venue.display_name) : null) } as Field<string>,
  volume: { read: (content) => (isObject(content.pagination) ? text(content.pagination.volume) : null) } as Field<string>,
  issue: { read: (content) => (isObject(content.pagination) ? text(content.pagination.issue) : null) } as Field<string>,
  pages: { read: (content) => (isObject(content.pagination) ? pagesOf(content.pagination) : null) } as Field<string>,
};

/**
 * Bibliographic enhancements, best first: those not superseded (no `superseded_by`, not named in
 * another one's `derived_from`) before superseded ones; within each, newest `created_at` first,
 * then the later one in the list (appended later).
 */
function bibliographicContents(enhancements: unknown[]): Json[] {
  const bibliographic = enhancements
    .map((enhancement, index) => ({ enhancement, index }))
    .filter((entry): entry is { enhancement: Json; index: number } => isObject(entry.enhancement) && isObject(entry.enhancement.content) && recordEnhancementTypes.includes(String(entry.enhancement.content.enhancement_type)));
  const derivedFrom = new Set<string>();
  for (const { enhancement } of bibliographic) {
    if (Array.isArray(enhancement.derived_from)) for (const parent of enhancement.derived_from) if (typeof parent === 'string') derivedFrom.add(parent);
  }
  const superseded = (enhancement: Json): boolean =>
    (typeof enhancement.superseded_by === 'string' && enhancement.superseded_by !== '') || (typeof enhancement.id === 'string' && derivedFrom.has(enhancement.id));
  const created = (enhancement: Json): string => (typeof enhancement.created_at === 'string' ? enhancement.created_at : '');
  return bibliographic
    .sort((a, b) => {
      const supersededOrder = Number(superseded(a.enhancement)) - Number(superseded(b.enhancement));
      if (supersededOrder !== 0) return supersededOrder;
      const createdA = Date.parse(created(a.enhancement));
      const createdB = Date.parse(created(b.enhancement));
      if (Number.isFinite(createdA) && Number.isFinite(createdB) && createdA !== createdB) return createdB - createdA;
      return b.index - a.index;
    })
    .map((entry) => entry.enhancement.content as Json);
}

function firstValue<T>(contents: Json[], field: Field<T>): T | null {
  for (const content of contents) {
    const value = field.read(content);
    if (value !== null) return value;
  }
  return null;
}

/**
 * The version of what `toDedupRecord` extracts. References keep their record (dedup-service's
 * `dedup_record`); one kept in another format is computed again from the reference.
 */
export const recordFormat = 1;

/** The enhancement types `toDedupRecord` reads: adding one of another type leaves a record as it was. */
export const recordEnhancementTypes: readonly string[] = ['bibliographic'];

/** From a deduplicated-view-shaped reference ({id, identifiers, enhancements} per contract §6). Uses
 *  the newest non-superseded bibliographic enhancement fields, falling back across enhancements. */
export function toDedupRecord(view: { id: string; identifiers: unknown[]; enhancements: unknown[] }): DedupRecord {
  const contents = bibliographicContents(Array.isArray(view.enhancements) ? view.enhancements : []);
  const identifiers: DedupRecord['identifiers'] = [];
  for (const identifier of Array.isArray(view.identifiers) ? view.identifiers : []) {
    if (!isObject(identifier)) continue;
    const type = text(identifier.identifier_type);
    const value = text(identifier.identifier);
    if (type === null || value === null) continue;
    identifiers.push({ type, value, name: text(identifier.other_identifier_name) });
  }
  const doi = identifiers.find((identifier) => identifier.type === 'doi')?.value ?? null;
  return {
    id: view.id,
    title: firstValue(contents, FIELDS.title),
    authors: firstValue(contents, FIELDS.authors) ?? [],
    year: firstValue(contents, FIELDS.year),
    venue: firstValue(contents, FIELDS.venue),
    volume: firstValue(contents, FIELDS.volume),
    issue: firstValue(contents, FIELDS.issue),
    pages: firstValue(contents, FIELDS.pages),
    doi,
    identifiers,
  };
}
