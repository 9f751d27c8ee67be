import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from '../schemas/common.schema';

// `references.indexed` (producer search-request-service; consumer robot-broker: INDEXING → COMPLETED).

export const IndexedReference = Type.Object({ reference_id: Uuid(), version: Type.Integer({ minimum: 1 }) }, { $id: 'IndexedReference' });
export type IndexedReference = Static<typeof IndexedReference>;

export const ReferencesIndexedEvent = Type.Object(
  { event_id: Uuid(), items: Type.Array(IndexedReference, { minItems: 1 }), occurred_at: DateTime() },
  { $id: 'ReferencesIndexedEvent' },
);
export type ReferencesIndexedEvent = Static<typeof ReferencesIndexedEvent>;
