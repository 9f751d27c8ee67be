import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HttpUrl, Nullable, Uuid, withDefault } from './common.schema';
import { CollisionStrategy, ImportBatchStatus, ImportRecordStatus, ImportResultStatus, IMPORT_RESULT_STATUSES } from './enums.schema';

// Imports (§8).

export const ImportRecordIn = Type.Object(
  {
    search_string: Type.Optional(Nullable(Type.String(), { default: null })),
    // Default "now (UTC)" is applied by the service: a schema default cannot be a clock.
    searched_at: Type.Optional(DateTime()),
    processor_name: Type.String(),
    processor_version: Type.String(),
    notes: Type.Optional(Nullable(Type.String(), { default: null })),
    expected_reference_count: Type.Integer({ minimum: -1 }),
    source_name: Type.String(),
  },
  { $id: 'ImportRecordIn' },
);
export type ImportRecordIn = Static<typeof ImportRecordIn>;

export const ImportResultRead = Type.Object(
  {
    id: Uuid(),
    import_batch_id: Uuid(),
    status: ImportResultStatus,
    reference_id: Nullable(Uuid()),
    failure_details: Nullable(Type.String()),
    import_batch: Type.Null(),
  },
  { $id: 'ImportResultRead' },
);
export type ImportResultRead = Static<typeof ImportResultRead>;

export const ImportBatchIn = Type.Object(
  {
    storage_url: HttpUrl(),
    callback_url: Type.Optional(Nullable(HttpUrl(), { default: null })),
    collision_strategy: Type.Optional(withDefault(CollisionStrategy, 'fail')),
    // D27: accepted; must equal the path id (checked by import-service at registration).
    import_record_id: Type.Optional(Uuid()),
  },
  { $id: 'ImportBatchIn' },
);
export type ImportBatchIn = Static<typeof ImportBatchIn>;

/** The 422 detail for a batch registered with `overwrite` (§8.6 decision). */
export const OVERWRITE_REFUSED_DETAIL = 'overwrite is not supported: the store is append-only.';
/** D27: a body `import_record_id` naming another record than the path. */
export const IMPORT_RECORD_MISMATCH_DETAIL = 'import_record_id in the body must equal the import record id in the path.';

const importRecordProperties = {
  search_string: Nullable(Type.String()),
  searched_at: DateTime(),
  processor_name: Type.String(),
  processor_version: Type.String(),
  notes: Nullable(Type.String()),
  expected_reference_count: Type.Integer({ minimum: -1 }),
  source_name: Type.String(),
  id: Uuid(),
  status: ImportRecordStatus,
};

/** Batch as nested in a record (no back-reference to the record, which is always null). */
export const ImportBatchRead = Type.Object(
  {
    storage_url: Type.String(),
    callback_url: Nullable(Type.String()),
    collision_strategy: CollisionStrategy,
    id: Uuid(),
    status: ImportBatchStatus,
    import_record_id: Uuid(),
    import_record: Type.Null(),
    import_results: Nullable(Type.Array(ImportResultRead)),
  },
  { $id: 'ImportBatchRead' },
);
export type ImportBatchRead = Static<typeof ImportBatchRead>;

export const ImportRecordRead = Type.Object(
  { ...importRecordProperties, batches: Nullable(Type.Array(ImportBatchRead)) },
  { $id: 'ImportRecordRead' },
);
export type ImportRecordRead = Static<typeof ImportRecordRead>;

export const ImportResultCounts = Type.Object(
  Object.fromEntries(IMPORT_RESULT_STATUSES.map((status) => [status, Type.Integer({ minimum: 0 })])) as Record<
    (typeof IMPORT_RESULT_STATUSES)[number],
    ReturnType<typeof Type.Integer>
  >,
  { $id: 'ImportResultCounts' },
);
export type ImportResultCounts = Static<typeof ImportResultCounts>;

export const ImportBatchSummary = Type.Object(
  {
    storage_url: Type.String(),
    callback_url: Nullable(Type.String()),
    collision_strategy: CollisionStrategy,
    id: Uuid(),
    import_batch_id: Uuid(),
    import_batch_status: ImportBatchStatus,
    results: ImportResultCounts,
    failure_details: Nullable(Type.Array(Type.String())),
  },
  { $id: 'ImportBatchSummary' },
);
export type ImportBatchSummary = Static<typeof ImportBatchSummary>;

export const ImportRecordPathParams = Type.Object({ import_record_id: Uuid() });
export const ImportBatchPathParams = Type.Object({ import_record_id: Uuid(), import_batch_id: Uuid() });

export const ImportRecordListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, default: 1000 })),
});
export type ImportRecordListQuery = Static<typeof ImportRecordListQuery>;

export const ImportResultListQuery = Type.Object({ result_status: Type.Optional(ImportResultStatus) });
export type ImportResultListQuery = Static<typeof ImportResultListQuery>;
