import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from '../schemas/common.schema';

// `references.indexed` (producer search-request-service; consumer robot-broker: INDEXING → COMPLETED).

export const IndexedReference = Type.Object({ reference_id: Uuid(), version: Type.Integer({ minimum: 1 }) }, { $id: 'IndexedReference' });
export type IndexedReference = Static<typeof IndexedReference>;

// `failed`: versions the search index refused for good (a failed bulk item), so pending
// enhancements waiting for them become `indexing_failed` instead of waiting out their deadline.
export const ReferencesIndexedEvent = Type.Object(
  { event_id: Uuid(), items: Type.Array(IndexedReference), failed: Type.Optional(Type.Array(IndexedReference)), occurred_at: DateTime() },
  { $id: 'ReferencesIndexedEvent' },
);
export type ReferencesIndexedEvent = Static<typeof ReferencesIndexedEvent>;
