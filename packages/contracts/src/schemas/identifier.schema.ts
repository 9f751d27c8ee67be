import { Type, type Static } from '@sinclair/typebox';
import { normaliseExternalIdentifierInPlace } from '../identifiers/identifier.normaliser';
import { registerSchemaNormaliser } from '../validation/schema-rules';
import { DiscriminatedUnion, DROP_UNKNOWN_KEYS, Uuid, withNormaliser } from './common.schema';

// External identifiers (§6.3). Patterns use `\p{Nd}` where the reference impl's `\d` is Unicode.
export const DOI_PATTERN = '^10\\.\\p{Nd}{4,9}/\\S+$';
export const OPEN_ALEX_PATTERN = '^W\\p{Nd}+$';
// Applied as a search, not anchored at the start; the class literally admits `|` (§6.3).
export const ERIC_PATTERN = 'E[D|J][0-9]+$';
export const PRO_QUEST_PATTERN = '[0-9]+$';

export const DoiIdentifier = Type.Object(
  { identifier: Type.String({ pattern: DOI_PATTERN }), identifier_type: Type.Literal('doi') },
  { $id: 'DOIIdentifier', ...DROP_UNKNOWN_KEYS },
);
export const PubMedIdentifier = Type.Object(
  { identifier: Type.Integer({ exclusiveMinimum: 0 }), identifier_type: Type.Literal('pm_id') },
  { $id: 'PubMedIdentifier', ...DROP_UNKNOWN_KEYS },
);
export const OpenAlexIdentifier = Type.Object(
  { identifier: Type.String({ pattern: OPEN_ALEX_PATTERN }), identifier_type: Type.Literal('open_alex') },
  { $id: 'OpenAlexIdentifier', ...DROP_UNKNOWN_KEYS },
);
export const EricIdentifier = Type.Object(
  { identifier: Type.String({ pattern: ERIC_PATTERN }), identifier_type: Type.Literal('eric') },
  { $id: 'ERICIdentifier', ...DROP_UNKNOWN_KEYS },
);
export const ProQuestIdentifier = Type.Object(
  { identifier: Type.String({ pattern: PRO_QUEST_PATTERN }), identifier_type: Type.Literal('pro_quest') },
  { $id: 'ProQuestIdentifier', ...DROP_UNKNOWN_KEYS },
);
export const OtherIdentifier = Type.Object(
  { identifier: Type.String(), identifier_type: Type.Literal('other'), other_identifier_name: Type.String() },
  { $id: 'OtherIdentifier', ...DROP_UNKNOWN_KEYS },
);

registerSchemaNormaliser('external-identifier', normaliseExternalIdentifierInPlace);

/** One external identifier, discriminated by the mandatory `identifier_type`, normalised first. */
export const ExternalIdentifier = withNormaliser(
  DiscriminatedUnion(
    'identifier_type',
    [DoiIdentifier, PubMedIdentifier, OpenAlexIdentifier, EricIdentifier, ProQuestIdentifier, OtherIdentifier],
    { $id: 'ExternalIdentifier' },
  ),
  'external-identifier',
);
export type ExternalIdentifier = Static<typeof ExternalIdentifier>;

/** An identifier plus the reference it belongs to (SDK model; no endpoint emits it). */
export const LinkedExternalIdentifier = Type.Object(
  { identifier: ExternalIdentifier, reference_id: Uuid() },
  { $id: 'LinkedExternalIdentifier' },
);
export type LinkedExternalIdentifier = Static<typeof LinkedExternalIdentifier>;

/** An external identifier or a bare repository reference id (reference associations, §6.3). */
export const Identifier = Type.Union([ExternalIdentifier, Uuid()], { $id: 'Identifier' });
export type Identifier = Static<typeof Identifier>;
