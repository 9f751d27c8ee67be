import { Type, type Static } from '@sinclair/typebox';
import { AnyUuid, Nullable, Uuid, withDefault } from './common.schema';
import { Enhancement, EnhancementFileInput } from './enhancement.schema';
import { TerminalDuplicateDetermination, Visibility } from './enums.schema';
import { ExternalIdentifier } from './identifier.schema';

// References (§6.1) as the API returns them and as each robot reference-file line, and the
// import-file line (§8.5).

const VisibilityDefaultPublic = Type.Optional(withDefault(Visibility, 'public'));

/** The active duplicate decision of a reference (only terminal determinations can be active, §6.8). */
export const ActiveDuplicateDecision = Type.Object(
  { duplicate_determination: TerminalDuplicateDetermination, canonical_reference_id: Nullable(Uuid()) },
  { $id: 'ActiveDuplicateDecision' },
);
export type ActiveDuplicateDecision = Static<typeof ActiveDuplicateDecision>;

export const Reference = Type.Object(
  {
    visibility: VisibilityDefaultPublic,
    id: Uuid(),
    identifiers: Type.Optional(Nullable(Type.Array(ExternalIdentifier), { default: null })),
    enhancements: Type.Optional(Nullable(Type.Array(Enhancement), { default: null })),
    // D15: an optional extension the SDK ignores; null before the first decision (and then left
    // out of robot reference files, which omit null keys).
    duplicate_decision: Type.Optional(Nullable(ActiveDuplicateDecision)),
  },
  { $id: 'Reference' },
);
export type Reference = Static<typeof Reference>;

/** A robot reference-file line is exactly a `Reference` (§12.2 step 5). */
export const RobotReferenceFileLine = Reference;
export type RobotReferenceFileLine = Reference;

/**
 * What a `Reference` read from the API carries beyond the import line's own keys: accepted and
 * ignored on import, as `id` is, so a reference read back can be imported again (as with the
 * reference implementation, whose reference bodies have only the import line's keys).
 */
const ReadOnlyDuplicateDecision = Type.Optional(Nullable(ActiveDuplicateDecision));
/** The line's own `id`, ignored (§8.5): null or a UUID of any version, as the reference implementation reads it. */
const IgnoredId = Type.Optional(Nullable(AnyUuid()));

/** An import-file line (§8.5): unknown top-level keys fail the line; at least one identifier. */
export const ReferenceFileInput = Type.Object(
  {
    visibility: VisibilityDefaultPublic,
    identifiers: Type.Array(ExternalIdentifier, { minItems: 1 }),
    enhancements: Type.Optional(Type.Array(EnhancementFileInput, { default: [] })),
    id: IgnoredId,
    duplicate_decision: ReadOnlyDuplicateDecision,
  },
  { $id: 'ReferenceFileInput', additionalProperties: false },
);
export type ReferenceFileInput = Static<typeof ReferenceFileInput>;

/**
 * The line-level shape of `ReferenceFileInput` with identifiers and enhancements left unparsed, so
 * the importer can validate each item on its own and report `Identifier <i>:` / `Enhancement <j>:`
 * blocks (§8.5) instead of failing the whole line.
 */
export const ReferenceFileInputEnvelope = Type.Object(
  {
    visibility: VisibilityDefaultPublic,
    identifiers: Type.Array(Type.Unknown(), { minItems: 1 }),
    enhancements: Type.Optional(Type.Array(Type.Unknown(), { default: [] })),
    id: IgnoredId,
    duplicate_decision: ReadOnlyDuplicateDecision,
  },
  { $id: 'ReferenceFileInputEnvelope', additionalProperties: false },
);
export type ReferenceFileInputEnvelope = Static<typeof ReferenceFileInputEnvelope>;

/** `GET /references/{reference_id}/` and similar path parameters. */
export const ReferencePathParams = Type.Object({ reference_id: Uuid() });
export type ReferencePathParams = Static<typeof ReferencePathParams>;

/**
 * `GET /references/?identifier=` (§7.2): repeated or one comma-separated value. Splitting and the
 * 100 limit are applied by `lookupIdentifiersFromQuery`; this schema checks presence.
 */
export const ReferenceLookupQuery = Type.Object({ identifier: Type.Array(Type.String(), { minItems: 1 }) });
export type ReferenceLookupQuery = Static<typeof ReferenceLookupQuery>;

export const SearchResultTotal = Type.Object(
  { count: Type.Integer(), is_lower_bound: Type.Boolean() },
  { $id: 'SearchResultTotal' },
);
export type SearchResultTotal = Static<typeof SearchResultTotal>;

export const SearchResultPage = Type.Object({ count: Type.Integer(), number: Type.Integer() }, { $id: 'SearchResultPage' });
export type SearchResultPage = Static<typeof SearchResultPage>;

/**
 * A search hit: the deduplicated view as the search index keeps it, which carries the active
 * determination as a bare `duplicate_determination` (D15; absent before any decision).
 */
export const SearchResultReference = Type.Object(
  {
    visibility: Reference.properties.visibility,
    id: Reference.properties.id,
    identifiers: Reference.properties.identifiers,
    enhancements: Reference.properties.enhancements,
    duplicate_determination: Type.Optional(TerminalDuplicateDetermination),
  },
  { $id: 'SearchResultReference' },
);
export type SearchResultReference = Static<typeof SearchResultReference>;

export const ReferenceSearchResult = Type.Object(
  { total: SearchResultTotal, page: SearchResultPage, references: Type.Array(SearchResultReference) },
  { $id: 'ReferenceSearchResult' },
);
export type ReferenceSearchResult = Static<typeof ReferenceSearchResult>;

export const ReferenceIdsSearchResult = Type.Object(
  { total: SearchResultTotal, reference_ids: Type.Array(Uuid()) },
  { $id: 'ReferenceIdsSearchResult' },
);
export type ReferenceIdsSearchResult = Static<typeof ReferenceIdsSearchResult>;

export const SEARCH_PAGE_SIZE = 20;
export const MAX_SEARCH_PAGE = 500;
export const SEARCH_RESULT_WINDOW = 10000;

const searchFilterProperties = {
  q: Type.String({ minLength: 1 }),
  start_year: Type.Optional(Type.Integer({ exclusiveMinimum: 0 })),
  end_year: Type.Optional(Type.Integer({ exclusiveMinimum: 0 })),
  annotation: Type.Optional(Type.Array(Type.String())),
  concept: Type.Optional(Type.Array(Type.String())),
  country: Type.Optional(Type.Array(Type.String())),
  country_wb_region: Type.Optional(Type.Array(Type.String())),
  sort: Type.Optional(Type.Array(Type.String())),
};

/** `GET /references/search/` query (§7.3). Filter grammar (annotation, concept, …) is the search service's. */
export const ReferenceSearchQuery = Type.Object({
  ...searchFilterProperties,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_PAGE, default: 1 })),
});
export type ReferenceSearchQuery = Static<typeof ReferenceSearchQuery>;

/** `GET /references/search/ids/` (and facet routes): the search parameters without `page`. */
export const ReferenceSearchIdsQuery = Type.Object(searchFilterProperties);
export type ReferenceSearchIdsQuery = Static<typeof ReferenceSearchIdsQuery>;
