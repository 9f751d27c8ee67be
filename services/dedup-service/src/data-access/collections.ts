import type { IndexDeclaration } from '@destiny/platform';

// dedup-service's own collections and their indexes.

export const COLLECTIONS = {
  references: 'references',
  /** One document per identifier identity (§6.3 tuple): the unique index that makes collisions exact. */
  identifiers: 'identifiers',
  duplicateDecisions: 'duplicate_decisions',
  /** Each reference's blocking keys in one document (multikey index), so candidate selection is an index lookup. */
  referenceBlockingKeys: 'reference_blocking_keys',
  /** The earlier layout (one row per key and reference), read while it still holds rows. */
  blockingKeys: 'blocking_keys',
  /** The outcome of every ingested import line, keyed by its import result id (retried chunks). */
  ingestOutcomes: 'ingest_outcomes',
  /**
   * New active decisions between their insert and their activation (a commit's last write): what a
   * commit that stopped in between left to reconcile. Nearly always empty.
   */
  decisionActivations: 'decision_activations',
  /** Per collection, the format all its documents were last brought to (so a finished migration is not scanned for again). */
  formatMarkers: 'format_markers',
  /** The writer lease that serialises deciding and writing across replicas (one document). */
  leases: 'leases',
} as const;

export const DEDUP_INDEXES: IndexDeclaration[] = [
  { collection: COLLECTIONS.references, keys: { 'active_decision.canonical_reference_id': 1 }, options: { name: 'canonical_reference' } },
  { collection: COLLECTIONS.references, keys: { import_result_id: 1 }, options: { name: 'import_result' } },
  { collection: COLLECTIONS.references, keys: { outbox_pending: 1 }, options: { name: 'outbox_pending' } },
  { collection: COLLECTIONS.identifiers, keys: { reference_id: 1 }, options: { name: 'reference' } },
  { collection: COLLECTIONS.duplicateDecisions, keys: { reference_id: 1 }, options: { name: 'reference' } },
  { collection: COLLECTIONS.duplicateDecisions, keys: { duplicate_determination: 1 }, options: { name: 'determination' } },
  { collection: COLLECTIONS.referenceBlockingKeys, keys: { keys: 1, created_at: -1 }, options: { name: 'keys_recent' } },
  { collection: COLLECTIONS.blockingKeys, keys: { key: 1, created_at: -1 }, options: { name: 'key_recent' } },
  { collection: COLLECTIONS.blockingKeys, keys: { reference_id: 1 }, options: { name: 'reference' } },
];
