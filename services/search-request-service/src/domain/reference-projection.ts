// Projection of a deduplicated view (contract §6.9) to the reference search document (§13.5).
import type { AbstractContentEnhancement, Annotation, AnnotationEnhancement, Authorship, BibliographicMetadataEnhancement, DeduplicatedReference, Enhancement, LinkedDataEnhancement, SearchResultReference } from '@destiny/contracts';

export const INCLUSION_DESTINY_SCHEME = 'inclusion:destiny';

/** The indexed document; `view` is stored only (not indexed) so a hit answers with its view. */
export interface ReferenceSearchDocument {
  id: string;
  visibility: string;
  duplicate_determination?: string;
  title?: string;
  abstract?: string;
  authors?: string[];
  publication_date?: string;
  publication_year?: number;
  annotations?: string[];
  evaluated_schemes?: string[];
  inclusion_destiny?: number;
  linked_data_concepts?: string[];
  linked_data_labels?: string[];
  linked_data_evaluated_properties?: string[];
  linked_data_countries?: string[];
  linked_data_country_wb_regions?: string[];
  view: SearchResultReference;
}

/**
 * Canonical-like (§15.2): no active decision or one other than `duplicate`; a duplicate is found
 * through its canonical's view instead. (An `exact_duplicate` is never stored, so never indexed.)
 */
export function isIndexable(view: Pick<DeduplicatedReference, 'duplicate_decision'>): boolean {
  return view.duplicate_decision?.duplicate_determination !== 'duplicate';
}

/**
 * Enhancements in priority order: the reference's own first, then the most recent (created_at
 * descending; later in the view wins a tie, as it was stored later).
 */
export function enhancementsByPriority(view: Pick<DeduplicatedReference, 'id' | 'enhancements'>): Enhancement[] {
  const indexed = (view.enhancements ?? []).map((enhancement, position) => ({ enhancement, position }));
  indexed.sort((a, b) => {
    const ownA = a.enhancement.reference_id === view.id ? 0 : 1;
    const ownB = b.enhancement.reference_id === view.id ? 0 : 1;
    if (ownA !== ownB) return ownA - ownB;
    const timeA = a.enhancement.created_at ? Date.parse(a.enhancement.created_at) : Number.NEGATIVE_INFINITY;
    const timeB = b.enhancement.created_at ? Date.parse(b.enhancement.created_at) : Number.NEGATIVE_INFINITY;
    if (timeA !== timeB) return timeB - timeA;
    return b.position - a.position;
  });
  return indexed.map((entry) => entry.enhancement);
}

function contentsOf<T extends Enhancement['content']['enhancement_type']>(ordered: Enhancement[], type: T): Array<Extract<Enhancement['content'], { enhancement_type: T }>> {
  return ordered.map((enhancement) => enhancement.content).filter((content): content is Extract<Enhancement['content'], { enhancement_type: T }> => content.enhancement_type === type);
}

function firstWith<T, V>(items: T[], pick: (item: T) => V | null | undefined): V | undefined {
  for (const item of items) {
    const value = pick(item);
    if (value !== null && value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** First authors, then middle authors alphabetically, then last authors. */
export function orderAuthors(authorship: Authorship[]): string[] {
  const byPosition = (position: Authorship['position']) => authorship.filter((author) => author.position === position).map((author) => author.display_name);
  const middle = byPosition('middle').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...byPosition('first'), ...middle, ...byPosition('last')];
}

const INTEGER_MAX = 2_147_483_647;

/** The mapping's `integer`: a year outside it is garbage and left out rather than refusing the reference. */
function indexableYear(year: number | null | undefined): number | undefined {
  return typeof year === 'number' && Number.isInteger(year) && Math.abs(year) <= INTEGER_MAX ? year : undefined;
}

function yearOf(date: string | null | undefined): number | undefined {
  if (!date) return undefined;
  const match = /^(\d{4})/.exec(date);
  return match ? Number(match[1]) : undefined;
}

function inclusionScore(annotation: Annotation): number | undefined {
  const data = annotation.data as Record<string, unknown> | undefined;
  if (data && typeof data.inclusion_score === 'number') return data.inclusion_score;
  if (annotation.annotation_type === 'boolean') {
    if (annotation.score === null || annotation.score === undefined) return undefined;
    return annotation.value ? annotation.score : 1 - annotation.score;
  }
  return annotation.score;
}

interface AnnotationFields {
  annotations: string[];
  evaluated_schemes: string[];
  inclusion_destiny?: number;
}

/** Each scheme comes from the highest-priority annotation enhancement that has it (no merging). */
function projectAnnotations(contents: AnnotationEnhancement[]): AnnotationFields {
  const chosen = new Map<string, Annotation[]>();
  for (const content of contents) {
    const schemes = new Map<string, Annotation[]>();
    for (const annotation of content.annotations) {
      const list = schemes.get(annotation.scheme) ?? [];
      list.push(annotation);
      schemes.set(annotation.scheme, list);
    }
    for (const [scheme, annotations] of schemes) if (!chosen.has(scheme)) chosen.set(scheme, annotations);
  }
  const result: AnnotationFields = { annotations: [], evaluated_schemes: [...chosen.keys()] };
  for (const [scheme, annotations] of chosen) {
    for (const annotation of annotations) if (annotation.annotation_type === 'boolean' && annotation.value) result.annotations.push(`${scheme}/${annotation.label}`);
    if (scheme === INCLUSION_DESTINY_SCHEME) result.inclusion_destiny = firstWith(annotations, inclusionScore);
  }
  return result;
}

interface LinkedDataFields {
  linked_data_concepts: string[];
  linked_data_labels: string[];
  linked_data_evaluated_properties: string[];
  linked_data_countries: string[];
  linked_data_country_wb_regions: string[];
}

const LABEL_KEYS = new Set(['label', 'prefLabel', 'rdfs:label', 'skos:prefLabel', 'name']);
const COUNTRY_KEYS = /country(code)?$|countries$/i;
const REGION_KEYS = /region/i;
const COUNTRY_CODE = /^[A-Z]{2}$/;
const WB_REGIONS = new Set(['EAS', 'ECS', 'LCN', 'MEA', 'NAC', 'SAS', 'SSF']);

function textValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textValues);
  if (value && typeof value === 'object' && typeof (value as Record<string, unknown>)['@value'] === 'string') return [(value as Record<string, string>)['@value']];
  return [];
}

function lastSegment(uri: string): string {
  return uri.replace(/[/#]+$/, '').split(/[/#:]/).pop() ?? uri;
}

/**
 * The JSON-LD payload of a linked-data enhancement is vocabulary-specific; this walks it
 * generically: every property whose value is a node with an `@id` is an evaluated property and
 * that `@id` a concept (its labels searchable); country and World Bank region properties are
 * recognised by name and by their code shapes.
 */
function projectLinkedData(content: LinkedDataEnhancement | undefined): LinkedDataFields {
  const fields: LinkedDataFields = { linked_data_concepts: [], linked_data_labels: [], linked_data_evaluated_properties: [], linked_data_countries: [], linked_data_country_wb_regions: [] };
  if (!content) return fields;
  const add = (list: string[], value: string) => {
    if (!list.includes(value)) list.push(value);
  };
  const propertyName = (key: string) => (/^https?:\/\//.test(key) || !content.vocabulary_uri ? key : `${content.vocabulary_uri.replace(/[/#]?$/, '/')}${key}`);
  const visit = (node: unknown, key: string | undefined) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, key);
      return;
    }
    if (typeof node === 'string' && key) {
      if (COUNTRY_KEYS.test(key) && COUNTRY_CODE.test(lastSegment(node))) add(fields.linked_data_countries, lastSegment(node));
      else if (REGION_KEYS.test(key) && WB_REGIONS.has(lastSegment(node))) add(fields.linked_data_country_wb_regions, lastSegment(node));
      return;
    }
    if (!node || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    const id = object['@id'];
    if (key && typeof id === 'string') {
      add(fields.linked_data_concepts, id);
      add(fields.linked_data_evaluated_properties, propertyName(key));
      if (COUNTRY_KEYS.test(key) && COUNTRY_CODE.test(lastSegment(id))) add(fields.linked_data_countries, lastSegment(id));
      if (REGION_KEYS.test(key) && WB_REGIONS.has(lastSegment(id))) add(fields.linked_data_country_wb_regions, lastSegment(id));
      for (const [labelKey, value] of Object.entries(object)) if (LABEL_KEYS.has(labelKey)) for (const text of textValues(value)) add(fields.linked_data_labels, text);
    }
    for (const [childKey, value] of Object.entries(object)) if (!childKey.startsWith('@') && !LABEL_KEYS.has(childKey)) visit(value, childKey);
  };
  visit(content.data, undefined);
  return fields;
}

function nonEmpty<T extends object>(document: T): T {
  for (const [key, value] of Object.entries(document)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) delete (document as Record<string, unknown>)[key];
  }
  return document;
}

/** The API form of a deduplicated view (the active decision travels as `duplicate_determination`). */
export function referenceOfView(view: DeduplicatedReference): SearchResultReference {
  const reference: SearchResultReference = { visibility: view.visibility ?? 'public', id: view.id, identifiers: view.identifiers ?? [], enhancements: view.enhancements ?? [] };
  if (view.duplicate_decision) reference.duplicate_determination = view.duplicate_decision.duplicate_determination;
  return reference;
}

export function projectReference(view: DeduplicatedReference): ReferenceSearchDocument {
  const ordered = enhancementsByPriority(view);
  const bibliographic = contentsOf(ordered, 'bibliographic') as BibliographicMetadataEnhancement[];
  const abstracts = contentsOf(ordered, 'abstract') as AbstractContentEnhancement[];
  const annotationFields = projectAnnotations(contentsOf(ordered, 'annotation') as AnnotationEnhancement[]);
  const linkedData = projectLinkedData((contentsOf(ordered, 'linked_data') as LinkedDataEnhancement[])[0]);
  const authorship = firstWith(bibliographic, (content) => (content.authorship && content.authorship.length > 0 ? content.authorship : undefined));
  const publicationDate = firstWith(bibliographic, (content) => content.publication_date);
  const publicationYear = firstWith(bibliographic, (content) => indexableYear(content.publication_year) ?? yearOf(content.publication_date));
  return nonEmpty({
    id: view.id,
    visibility: view.visibility ?? 'public',
    duplicate_determination: view.duplicate_decision?.duplicate_determination,
    title: firstWith(bibliographic, (content) => content.title),
    abstract: firstWith(abstracts, (content) => content.abstract),
    authors: authorship ? orderAuthors(authorship) : undefined,
    publication_date: publicationDate,
    publication_year: publicationYear,
    ...annotationFields,
    ...linkedData,
    view: referenceOfView(view),
  });
}
