// The reference search query of contract §7.3, built as pure data so reference search, id search,
// counts and the search-request scan (§11) share one definition of what a query matches.
import { SEARCH_PAGE_SIZE, SEARCH_RESULT_WINDOW } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';

/** The filters of §7.3 (already schema-validated: types, page bounds). */
export interface ReferenceSearchFilters {
  q: string;
  start_year?: number;
  end_year?: number;
  annotation?: string[];
  concept?: string[];
  country?: string[];
  country_wb_region?: string[];
}

export type EsQuery = Record<string, unknown>;
export type EsSort = Array<Record<string, unknown>>;

/** Fields the user's query string searches when it names none. */
export const DEFAULT_SEARCH_FIELDS = ['title', 'abstract'] as const;
export const FREE_TEXT_FIELDS = new Set(['title', 'abstract', 'authors', 'linked_data_labels']);
export const SORTABLE_FIELDS = new Set([
  'id',
  'visibility',
  'duplicate_determination',
  'publication_year',
  'publication_date',
  'annotations',
  'evaluated_schemes',
  'inclusion_destiny',
  'linked_data_concepts',
  'linked_data_evaluated_properties',
  'linked_data_countries',
  'linked_data_country_wb_regions',
]);
export const WORLD_BANK_REGIONS = new Set(['EAS', 'ECS', 'LCN', 'MEA', 'NAC', 'SAS', 'SSF']);

export function queryStringQuery(q: string): EsQuery {
  return { query_string: { query: q, fields: [...DEFAULT_SEARCH_FIELDS], default_operator: 'OR' } };
}

/** `<scheme>[/<label>][@<score>]` (§7.3). */
export function annotationFilter(raw: string): EsQuery {
  const invalid = () => ServiceError.badRequest(`Invalid annotation filter: ${raw}. Expected <scheme>[/<label>][@<score>] with 0 <= score <= 1.`);
  const at = raw.lastIndexOf('@');
  const qualified = at >= 0 ? raw.slice(0, at) : raw;
  const slash = qualified.indexOf('/');
  const scheme = slash >= 0 ? qualified.slice(0, slash) : qualified;
  const label = slash >= 0 ? qualified.slice(slash + 1) : undefined;
  if (!scheme.trim() || (label !== undefined && !label.trim())) throw invalid();
  if (at >= 0) {
    const scoreText = raw.slice(at + 1).trim();
    const score = Number(scoreText);
    if (!scoreText || !Number.isFinite(score) || score < 0 || score > 1) throw invalid();
    const field = `${scheme.replace(/:/g, '_')}${label !== undefined ? `_${label}` : ''}`;
    return { range: { [field]: { gte: score } } };
  }
  if (label !== undefined) return { term: { annotations: `${scheme}/${label}` } };
  return { prefix: { annotations: `${scheme}/` } };
}

function commaPieces(raw: string, parameter: string): string[] {
  const pieces = raw.split(',').map((piece) => piece.trim());
  if (pieces.some((piece) => piece === '')) throw ServiceError.badRequest(`Invalid ${parameter} filter: ${raw}. Empty values are not allowed.`);
  return pieces;
}

export function conceptFilter(raw: string): EsQuery {
  return { terms: { linked_data_concepts: commaPieces(raw, 'concept') } };
}

export function countryFilter(raw: string): EsQuery {
  const codes = commaPieces(raw, 'country').map((piece) => piece.toUpperCase());
  for (const code of codes) if (!/^[A-Z]{2}$/.test(code)) throw ServiceError.badRequest(`Invalid country code: ${code}. Expected an ISO 3166-1 alpha-2 code.`);
  return { terms: { linked_data_countries: codes } };
}

export function countryRegionFilter(raw: string): EsQuery {
  const regions = commaPieces(raw, 'country_wb_region').map((piece) => piece.toUpperCase());
  for (const region of regions) {
    if (!WORLD_BANK_REGIONS.has(region)) throw ServiceError.badRequest(`Invalid World Bank region: ${region}. Expected one of ${[...WORLD_BANK_REGIONS].join(', ')}.`);
  }
  return { terms: { linked_data_country_wb_regions: regions } };
}

/** The query of a search: the query string plus every filter (ANDed, non-scoring). */
export function buildSearchQuery(filters: ReferenceSearchFilters): EsQuery {
  if (filters.start_year !== undefined && filters.end_year !== undefined && filters.end_year < filters.start_year) {
    throw ServiceError.badRequest(`end_year (${filters.end_year}) must not be before start_year (${filters.start_year}).`);
  }
  const filter: EsQuery[] = [];
  if (filters.start_year !== undefined || filters.end_year !== undefined) {
    const range: Record<string, number> = {};
    if (filters.start_year !== undefined) range.gte = filters.start_year;
    if (filters.end_year !== undefined) range.lte = filters.end_year;
    filter.push({ range: { publication_year: range } });
  }
  for (const raw of filters.annotation ?? []) filter.push(annotationFilter(raw));
  for (const raw of filters.concept ?? []) filter.push(conceptFilter(raw));
  for (const raw of filters.country ?? []) filter.push(countryFilter(raw));
  for (const raw of filters.country_wb_region ?? []) filter.push(countryRegionFilter(raw));
  const must = queryStringQuery(filters.q);
  return filter.length === 0 ? must : { bool: { must: [must], filter } };
}

/** `sort` entries (§7.3): field names, `-` descending, `relevance` = score; id descending last. */
export function buildSort(entries: string[] | undefined): EsSort {
  const sort: EsSort = [];
  const list = entries && entries.length > 0 ? entries : ['relevance'];
  for (const entry of list) {
    const descending = entry.startsWith('-');
    const field = descending ? entry.slice(1) : entry;
    if (field === 'relevance') {
      sort.push({ _score: { order: descending ? 'asc' : 'desc' } });
      continue;
    }
    if (FREE_TEXT_FIELDS.has(field)) throw ServiceError.badRequest(`Cannot sort by free-text field: ${field}.`);
    if (!SORTABLE_FIELDS.has(field)) throw ServiceError.badRequest(`Cannot sort by unknown field: ${field}.`);
    sort.push({ [field]: { order: descending ? 'desc' : 'asc' } });
  }
  sort.push({ id: { order: 'desc' } });
  return sort;
}

/** `from` of a 1-based page of 20; the 10,000-result window bounds it. */
export function pageOffset(page: number): number {
  const from = (page - 1) * SEARCH_PAGE_SIZE;
  if (page < 1 || from + SEARCH_PAGE_SIZE > SEARCH_RESULT_WINDOW) {
    throw ServiceError.badRequest(`Requested page ${page} exceeds the result window of ${SEARCH_RESULT_WINDOW} results (page size ${SEARCH_PAGE_SIZE}).`);
  }
  return from;
}
