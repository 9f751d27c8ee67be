import { Type, type Static } from '@sinclair/typebox';
import { JsonObject, Uuid } from './common.schema';
import { ExternalIdentifierType, TerminalDuplicateDetermination, Visibility } from './enums.schema';

// The percolated `ReferenceDoc` (§13.2): empty values omitted; identifiers carry their
// reference_id and a string `identifier`; raw, reference_association and linked_data
// enhancements are left out and bibliographic `pagination` is removed.

export const PercolationIdentifier = Type.Object(
  {
    reference_id: Uuid(),
    identifier: Type.String(),
    identifier_type: ExternalIdentifierType,
    other_identifier_name: Type.Optional(Type.String()),
  },
  { $id: 'PercolationIdentifier' },
);
export type PercolationIdentifier = Static<typeof PercolationIdentifier>;

export const PercolationEnhancement = Type.Object(
  {
    id: Uuid(),
    reference_id: Uuid(),
    visibility: Visibility,
    source: Type.String(),
    robot_version: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    content: JsonObject(),
  },
  { $id: 'PercolationEnhancement' },
);
export type PercolationEnhancement = Static<typeof PercolationEnhancement>;

export const ReferenceDoc = Type.Object(
  {
    visibility: Type.Optional(Visibility),
    identifiers: Type.Optional(Type.Array(PercolationIdentifier, { minItems: 1 })),
    enhancements: Type.Optional(Type.Array(PercolationEnhancement, { minItems: 1 })),
    duplicate_determination: Type.Optional(TerminalDuplicateDetermination),
  },
  { $id: 'ReferenceDoc' },
);
export type ReferenceDoc = Static<typeof ReferenceDoc>;

/** The document evaluated against all automations: `{reference, changeset}`. */
export const PercolationDocument = Type.Object({ reference: ReferenceDoc, changeset: ReferenceDoc }, { $id: 'PercolationDocument' });
export type PercolationDocument = Static<typeof PercolationDocument>;

/** Enhancement types never present in a ReferenceDoc. */
export const PERCOLATION_EXCLUDED_ENHANCEMENT_TYPES = ['raw', 'reference_association', 'linked_data'] as const;
