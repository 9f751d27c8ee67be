import { Type, type Static } from '@sinclair/typebox';
import { normalisePaginationInPlace } from '../identifiers/identifier.normaliser';
import { isHttpUrl } from '../validation/http-url';
import { registerSchemaCheck, registerSchemaNormaliser, valueError, type RuleIssue } from '../validation/schema-rules';
import {
  DateOnly,
  DateTime,
  DiscriminatedUnion,
  DROP_UNKNOWN_KEYS,
  HttpUrl,
  JsonObject,
  Nullable,
  NullableStringEnum,
  withCheck,
  withNormaliser,
} from './common.schema';
import {
  AbstractProcessType,
  AuthorPosition,
  DRIVER_VERSIONS,
  PUBLICATION_VENUE_TYPES,
  ReferenceAssociationType,
} from './enums.schema';
import { Identifier } from './identifier.schema';

// The eight enhancement content variants (§6.6), discriminated by `enhancement_type`.

const OptionalNullable = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema, { default: null }));

export const Authorship = Type.Object(
  {
    display_name: Type.String(),
    orcid: OptionalNullable(Type.String()),
    position: AuthorPosition,
  },
  { $id: 'Authorship', ...DROP_UNKNOWN_KEYS },
);
export type Authorship = Static<typeof Authorship>;

registerSchemaNormaliser('pagination', normalisePaginationInPlace);

export const Pagination = withNormaliser(
  Type.Object(
    {
      volume: OptionalNullable(Type.String()),
      issue: OptionalNullable(Type.String()),
      first_page: OptionalNullable(Type.String()),
      last_page: OptionalNullable(Type.String()),
    },
    { $id: 'Pagination', ...DROP_UNKNOWN_KEYS },
  ),
  'pagination',
);
export type Pagination = Static<typeof Pagination>;

export const PublicationVenue = Type.Object(
  {
    display_name: OptionalNullable(Type.String()),
    venue_type: Type.Optional(NullableStringEnum(PUBLICATION_VENUE_TYPES, { default: null })),
    issn: OptionalNullable(Type.Array(Type.String())),
    issn_l: OptionalNullable(Type.String()),
    host_organization_name: OptionalNullable(Type.String()),
  },
  { $id: 'PublicationVenue', ...DROP_UNKNOWN_KEYS },
);
export type PublicationVenue = Static<typeof PublicationVenue>;

export const BibliographicMetadataEnhancement = Type.Object(
  {
    enhancement_type: Type.Literal('bibliographic'),
    authorship: OptionalNullable(Type.Array(Authorship)),
    cited_by_count: OptionalNullable(Type.Integer()),
    created_date: OptionalNullable(DateOnly()),
    updated_date: OptionalNullable(DateOnly()),
    publication_date: OptionalNullable(DateOnly()),
    publication_year: OptionalNullable(Type.Integer()),
    publisher: OptionalNullable(Type.String()),
    title: OptionalNullable(Type.String()),
    pagination: OptionalNullable(Pagination),
    publication_venue: OptionalNullable(PublicationVenue),
  },
  { $id: 'BibliographicMetadataEnhancement', ...DROP_UNKNOWN_KEYS },
);
export type BibliographicMetadataEnhancement = Static<typeof BibliographicMetadataEnhancement>;

export const AbstractContentEnhancement = Type.Object(
  {
    enhancement_type: Type.Literal('abstract'),
    process: AbstractProcessType,
    abstract: Type.String(),
  },
  { $id: 'AbstractContentEnhancement', ...DROP_UNKNOWN_KEYS },
);
export type AbstractContentEnhancement = Static<typeof AbstractContentEnhancement>;

/** `scheme` must not contain `/`: the qualified label is `<scheme>/<label>`. */
export const ANNOTATION_SCHEME_PATTERN = '^[^/]+$';

export const BooleanAnnotation = Type.Object(
  {
    annotation_type: Type.Literal('boolean'),
    scheme: Type.String({ pattern: ANNOTATION_SCHEME_PATTERN }),
    label: Type.String(),
    value: Type.Boolean(),
    score: OptionalNullable(Type.Number()),
    data: Type.Optional(JsonObject({ default: {} })),
  },
  { $id: 'BooleanAnnotation', ...DROP_UNKNOWN_KEYS },
);
export type BooleanAnnotation = Static<typeof BooleanAnnotation>;

export const ScoreAnnotation = Type.Object(
  {
    annotation_type: Type.Literal('score'),
    scheme: Type.String({ pattern: ANNOTATION_SCHEME_PATTERN }),
    label: Type.String(),
    score: Type.Number(),
    data: Type.Optional(JsonObject({ default: {} })),
  },
  { $id: 'ScoreAnnotation', ...DROP_UNKNOWN_KEYS },
);
export type ScoreAnnotation = Static<typeof ScoreAnnotation>;

export const Annotation = DiscriminatedUnion('annotation_type', [BooleanAnnotation, ScoreAnnotation], { $id: 'Annotation' });
export type Annotation = Static<typeof Annotation>;

export const AnnotationEnhancement = Type.Object(
  {
    enhancement_type: Type.Literal('annotation'),
    annotations: Type.Array(Annotation, { minItems: 1 }),
  },
  { $id: 'AnnotationEnhancement', ...DROP_UNKNOWN_KEYS },
);
export type AnnotationEnhancement = Static<typeof AnnotationEnhancement>;

export const Location = Type.Object(
  {
    is_oa: OptionalNullable(Type.Boolean()),
    version: Type.Optional(NullableStringEnum(DRIVER_VERSIONS, { default: null })),
    landing_page_url: OptionalNullable(HttpUrl()),
    pdf_url: OptionalNullable(HttpUrl()),
    license: OptionalNullable(Type.String()),
    extra: OptionalNullable(JsonObject()),
  },
  { $id: 'Location', ...DROP_UNKNOWN_KEYS },
);
export type Location = Static<typeof Location>;

export const LocationEnhancement = Type.Object(
  {
    enhancement_type: Type.Literal('location'),
    locations: Type.Array(Location, { minItems: 1 }),
  },
  { $id: 'LocationEnhancement', ...DROP_UNKNOWN_KEYS },
);
export type LocationEnhancement = Static<typeof LocationEnhancement>;

export const ReferenceAssociationEnhancement = Type.Object(
  {
    enhancement_type: Type.Literal('reference_association'),
    associated_reference_ids: Type.Array(Identifier, { minItems: 1 }),
    association_type: ReferenceAssociationType,
  },
  { $id: 'ReferenceAssociationEnhancement', ...DROP_UNKNOWN_KEYS },
);
export type ReferenceAssociationEnhancement = Static<typeof ReferenceAssociationEnhancement>;

/** linked_data: `data` must hold `"@context"` whose value is an http(s) URL string (§6.6). */
export function checkLinkedDataContext(value: unknown): RuleIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const data = (value as Record<string, unknown>).data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  const context = (data as Record<string, unknown>)['@context'];
  if (typeof context === 'string' && isHttpUrl(context)) return [];
  return [{ ...valueError("data must contain an '@context' key whose value is an http(s) URL", ['data']), input: data }];
}
registerSchemaCheck('linked-data-context', checkLinkedDataContext);

export const LinkedDataEnhancement = withCheck(
  Type.Object(
    {
      enhancement_type: Type.Literal('linked_data'),
      vocabulary_uri: HttpUrl(),
      data: JsonObject(),
    },
    { $id: 'LinkedDataEnhancement', ...DROP_UNKNOWN_KEYS },
  ),
  'linked-data-context',
);
export type LinkedDataEnhancement = Static<typeof LinkedDataEnhancement>;

/** Python truthiness of a JSON value: not null/false/0/""/[]/{}. */
export function isTruthyJson(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** raw: `data` must be truthy (§6.6). */
export function checkRawDataTruthy(value: unknown): RuleIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const record = value as Record<string, unknown>;
  if (!('data' in record) || isTruthyJson(record.data)) return [];
  return [{ ...valueError('data must be populated on a raw enhancement', ['data']), input: record.data }];
}
registerSchemaCheck('raw-data-truthy', checkRawDataTruthy);

export const RawEnhancement = withCheck(
  Type.Object(
    {
      enhancement_type: Type.Literal('raw'),
      source_export_date: DateTime(),
      description: Type.String(),
      metadata: Type.Optional(JsonObject({ default: {} })),
      data: Type.Unknown(),
    },
    { $id: 'RawEnhancement', ...DROP_UNKNOWN_KEYS },
  ),
  'raw-data-truthy',
);
export type RawEnhancement = Static<typeof RawEnhancement>;

export const FullTextEnhancement = Type.Object(
  {
    enhancement_type: Type.Literal('full_text'),
    file_url: HttpUrl(),
    byte_size: OptionalNullable(Type.Integer()),
    sha256_checksum: OptionalNullable(Type.String()),
    mime_type: Type.Optional(Type.String({ default: 'application/pdf' })),
    version: Type.Optional(NullableStringEnum(DRIVER_VERSIONS, { default: null })),
    is_oa: OptionalNullable(Type.Boolean()),
    license: OptionalNullable(Type.String()),
    source: OptionalNullable(Type.String()),
    source_url: OptionalNullable(HttpUrl()),
    retrieved_at: OptionalNullable(DateTime()),
  },
  { $id: 'FullTextEnhancement', ...DROP_UNKNOWN_KEYS },
);
export type FullTextEnhancement = Static<typeof FullTextEnhancement>;

export const EnhancementContent = DiscriminatedUnion(
  'enhancement_type',
  [
    BibliographicMetadataEnhancement,
    AbstractContentEnhancement,
    AnnotationEnhancement,
    LocationEnhancement,
    ReferenceAssociationEnhancement,
    LinkedDataEnhancement,
    RawEnhancement,
    FullTextEnhancement,
  ],
  { $id: 'EnhancementContent' },
);
export type EnhancementContent = Static<typeof EnhancementContent>;
