import type { EnhancementRequestStatus, PendingEnhancementStatus, RobotEntitlement, RobotResultValidationEntry, SingleEnhancementRequestStatus } from '@destiny/contracts';
import type { IndexDeclaration, OutboxEntry } from '@destiny/platform';
import type { EncryptedSecret } from '../domain/secret-cipher';

export const COLLECTIONS = {
  robots: 'robots',
  requests: 'enhancement_requests',
  pending: 'pending_enhancements',
  batches: 'robot_enhancement_batches',
  importChunks: 'robot_batch_import_chunks',
  indexedVersions: 'indexed_reference_versions',
  singleRequests: 'single_enhancement_requests',
} as const;

export interface RobotDocument {
  _id: string;
  name: string;
  description: string;
  owner: string;
  entitlements: RobotEntitlement[];
  base_url: string | null;
  secret: EncryptedSecret;
  created_at: Date;
  /** The robot's latest poll: when work arrives for it, its next batch is prepared for a poll of this kind. */
  last_poll?: RobotPollShape;
}

export interface RobotPollShape {
  limit: number;
  full_text: boolean;
  /** When a poll of this kind was last seen (refreshed at most once a minute). */
  at: Date;
}

export interface EnhancementRequestDocument {
  _id: string;
  robot_id: string;
  reference_ids: string[];
  source: string | null;
  request_status: EnhancementRequestStatus;
  error: string | null;
  created_at: Date;
}

export interface SingleRequestDocument {
  _id: string;
  reference_id: string;
  robot_id: string;
  source: string | null;
  enhancement_parameters: Record<string, unknown> | null;
  request_status: SingleEnhancementRequestStatus;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PendingEnhancementDocument {
  _id: string;
  reference_id: string;
  robot_id: string;
  enhancement_request_id: string | null;
  robot_enhancement_batch_id: string | null;
  status: PendingEnhancementStatus;
  source: string | null;
  /** Always null now: every row of a batch shares its batch's lease (`lease_expiry` there). */
  expires_at: Date | null;
  retry_of: string | null;
  retry_depth: number;
  created_at: Date;
  /** Unique: (request, reference), (chunk, reference), `retry:<expired id>` or the own id. */
  dedup_key: string;
  /** `<robot_id>|<id>` while pollable, else null: one ordered range per robot, oldest first. */
  queue_order: string | null;
  /** Written by versions that kept the lease on each row; the lease is now its batch's `lease_expiry`. */
  lease_expiry?: Date | null;
  /** While `indexing`: the version of the search entry that holds the stored enhancement (searchable once indexed). */
  index_version?: number;
  /** While `indexing`, for a duplicate: its canonical, whose search entry holds the enhancement; absent: the reference's own. */
  index_reference_id?: string;
  /** While `indexing`: when the version must have been announced as indexed, else `indexing_failed`. */
  indexing_deadline?: Date | null;
}

/**
 * `processing` → `importing` → `imported`, or `failed` (robot error, import crash), or `expired`
 * (lease passed). A row still marked `processing` is in whatever state its batch is in: the
 * submission and the expiry are one write to the batch, not one per row. A batch prepared ahead of
 * a robot's next poll is `preparing` → `prepared` → `processing` when a poll takes it, or
 * `releasing` (then deleted, its rows pending again) when none does in time; until handed out it
 * does not exist for clients and its rows count as pending.
 */
export type BatchStatus = 'preparing' | 'prepared' | 'releasing' | 'processing' | 'importing' | 'imported' | 'failed' | 'expired';

/** The statuses of a batch prepared ahead and not handed out. */
export const UNREVEALED_BATCH_STATUSES: readonly BatchStatus[] = ['preparing', 'prepared', 'releasing'];

export interface ImportAttempt {
  status: 'stored' | 'discarded' | 'failed';
  /** The version of the search entry holding the stored enhancement. */
  version?: number;
  /** That entry when it is not the reference's own: a duplicate is searchable through its canonical. */
  index_reference_id?: string;
}

export interface BatchImportState {
  /** Non-blank result-file lines fully handled: the chunks recorded from lines below it count, later ones are replayed. */
  next_line: number;
  /** Written by versions that recorded each chunk into the batch document; now in `robot_batch_import_chunks`. */
  attempts: Record<string, ImportAttempt>;
  /** As `attempts`. */
  entries: RobotResultValidationEntry[];
  /**
   * Set while a chunk's AddEnhancements call may have reached dedup-service unrecorded, with the
   * enhancement ids it sent by reference: a replay sends the same ids, so nothing is stored twice.
   */
  in_flight: { from_line: number; enhancement_ids?: Record<string, string> } | null;
}

/**
 * The outcome of one chunk of a batch's result file, recorded before the batch's `next_line` moves
 * past it. A document of its own, so recording a chunk does not rewrite a batch document that
 * grows with every chunk.
 */
export interface BatchImportChunkDocument {
  /** `<batch id>:<from_line, zero-padded>`: one record per chunk start, the batch's records in order. */
  _id: string;
  batch_id: string;
  /** The chunk's lines are those after `from_line` up to and including `through_line`. */
  from_line: number;
  through_line: number;
  attempts: Record<string, ImportAttempt>;
  entries: RobotResultValidationEntry[];
}

export interface RobotBatchDocument {
  _id: string;
  robot_id: string;
  status: BatchStatus;
  /**
   * The lease of every pending enhancement in the batch while `processing` (and `expired` until the
   * expiry is done); while prepared ahead, when it is released unless a poll takes it; else null.
   */
  lease_expiry: Date | null;
  /** While prepared ahead: the poll it is for (the same limit and full-text entitlement). */
  prepared?: { limit: number; full_text: boolean };
  error: string | null;
  reference_ids: string[];
  /** The pending enhancement of each of `reference_ids`, in the same order (absent on batches of older versions). */
  pending_ids?: string[];
  reference_key: string;
  result_key: string;
  validation_key: string | null;
  created_at: Date;
  import: BatchImportState;
  _outbox?: OutboxEntry[];
}

export interface IndexedVersionDocument {
  _id: string;
  version: number;
}

export const ROBOT_BROKER_INDEXES: IndexDeclaration[] = [
  { collection: COLLECTIONS.robots, keys: { name: 1 }, options: { unique: true, name: 'robot_name_unique' } },
  { collection: COLLECTIONS.pending, keys: { dedup_key: 1 }, options: { unique: true, name: 'pending_dedup_key' } },
  { collection: COLLECTIONS.pending, keys: { queue_order: 1 }, options: { name: 'pending_queue_order' } },
  { collection: COLLECTIONS.pending, keys: { robot_enhancement_batch_id: 1 }, options: { name: 'pending_batch' } },
  { collection: COLLECTIONS.pending, keys: { enhancement_request_id: 1 }, options: { name: 'pending_request' } },
  { collection: COLLECTIONS.pending, keys: { reference_id: 1 }, options: { name: 'pending_reference' } },
  { collection: COLLECTIONS.pending, keys: { indexing_deadline: 1 }, options: { name: 'pending_indexing_deadline' } },
  { collection: COLLECTIONS.pending, keys: { index_reference_id: 1 }, options: { name: 'pending_index_reference' } },
  { collection: COLLECTIONS.batches, keys: { status: 1 }, options: { name: 'batch_status' } },
  { collection: COLLECTIONS.batches, keys: { lease_expiry: 1 }, options: { name: 'batch_lease_expiry' } },
  // The outbox relay selects batches with waiting jobs through this flag.
  { collection: COLLECTIONS.batches, keys: { outbox_pending: 1 }, options: { name: 'batch_outbox_pending' } },
];

export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: number }).code === 11000;
}
