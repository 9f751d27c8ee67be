import type { AddEnhancementOutcome__Output as AddEnhancementOutcome } from '@destiny/contracts/generated/grpc/destiny/dedup_service/AddEnhancementOutcome';
import { canonicalUuid, Enhancement, enhancementFingerprint, uuidv7, validate, type ChangeOrigin } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import { ConcurrentChangeError, WRITE_ROUNDS, type ReferenceRepository } from '../data-access/reference.repository';
import { enhancementChangeset, isCanonicalLike, type ReferenceDocument, type StoredEnhancement } from '../domain/reference.model';
import { compactEnhancedEntry, referenceChangedEntry } from '../domain/reference-changed.event-builder';
import { comparisonUpdate } from '../domain/dedup-record';
import type { BlockingKeyRepository } from '../data-access/blocking-key.repository';
import type { DeduplicationEnginePort } from '../domain/deduplication-engine.port';
import { createRefreshCanonicalViews, type SearchEntry } from './refresh-canonical-views';

export type { AddEnhancementOutcome };

export interface AddEnhancementsRequest {
  enhancements_json: string[];
  robot_id: string;
  robot_enhancement_batch_id: string;
  enhancement_request_id: string;
  /** Caller-assigned ids, parallel to `enhancements_json`; empty: assigned here. */
  enhancement_ids?: string[];
}

interface ParsedEnhancement {
  index: number;
  id: string;
  /** The caller chose the id, so finding it stored means a retry of this very enhancement. */
  assigned: boolean;
  value: Enhancement;
}

export function missingParentsMessage(ids: readonly string[]): string {
  return `Enhancements with ids [${ids.join(', ')}] do not exist.`;
}

function parseRequest(request: AddEnhancementsRequest): ParsedEnhancement[] {
  const ids = request.enhancement_ids ?? [];
  if (ids.length > 0 && ids.length !== request.enhancements_json.length) throw ServiceError.unprocessable('enhancement_ids must be empty or one per enhancement.');
  return request.enhancements_json.map((text, index) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw ServiceError.unprocessable(`Enhancement ${index} is not JSON.`);
    }
    const result = validate(Enhancement, value, 'body');
    if (!result.ok) throw ServiceError.unprocessable(result.errors);
    const assigned = ids.length > 0 ? canonicalUuid(ids[index]) : null;
    if (ids.length > 0 && !assigned) throw ServiceError.unprocessable(`Enhancement id ${ids[index]} is not a UUID.`);
    return { index, id: assigned ?? uuidv7(), assigned: assigned !== null, value: result.value };
  });
}

type Outcome = Omit<AddEnhancementOutcome, 'index_reference_id' | 'index_version'>;

/** The first current enhancement with the fingerprint or the id, without copying the list (it runs per item). */
function findCurrent(enhancements: readonly StoredEnhancement[], fingerprint: string, id: string): StoredEnhancement | undefined {
  for (const enhancement of enhancements) if (enhancement.superseded_by === null && (enhancement.fingerprint === fingerprint || enhancement.id === id)) return enhancement;
  return undefined;
}

/**
 * Stores enhancements append-only (§6.5), a chunk at a time: one read of the target references,
 * one read of their duplicates, one bulk write of versioned updates each carrying its
 * `reference.changed` event. A duplicate is not in the search index, so its canonical gets a new
 * version with a `duplicate_enhanced` event too: that is the entry where the enhancement becomes
 * searchable, and the outcome names it. An exact duplicate of a current enhancement is discarded; a
 * `derived_from` id that is neither on the reference nor on one of its duplicates fails the item.
 */
export function createAddEnhancements(deps: {
  references: ReferenceRepository;
  blocking: BlockingKeyRepository;
  engine: DeduplicationEnginePort;
  trustedTypes: ReadonlySet<string>;
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  onEvents(): void;
}) {
  const refreshCanonicals = createRefreshCanonicalViews(deps);
  return async (request: AddEnhancementsRequest): Promise<AddEnhancementOutcome[]> => {
    const parsed = parseRequest(request);
    const origin: ChangeOrigin = {};
    if (request.robot_id) origin.robot_id = request.robot_id;
    if (request.robot_enhancement_batch_id) origin.robot_enhancement_batch_id = request.robot_enhancement_batch_id;
    if (request.enhancement_request_id) origin.enhancement_request_id = request.enhancement_request_id;
    return deps.exclusive(async () => {
      const outcomes: Outcome[] = new Array(parsed.length);
      const onDuplicates = new Map<string, Set<string>>();
      let remaining = parsed;
      for (let round = 0; remaining.length > 0; round += 1) {
        if (round === WRITE_ROUNDS) throw new ConcurrentChangeError(remaining[0].value.reference_id);
        remaining = await addOnce(remaining, outcomes, origin, onDuplicates);
      }
      const entries = onDuplicates.size > 0 ? await refreshCanonicals(onDuplicates, origin) : new Map<string, SearchEntry>();
      return outcomes.map((outcome) => {
        const entry = outcome.status === 'stored' ? entries.get(outcome.reference_id) : undefined;
        return { ...outcome, index_reference_id: entry?.id ?? outcome.reference_id, index_version: entry?.version ?? outcome.reference_version };
      });
    });
  };

  /** One read-decide-write round; answers the items whose reference changed under it (to redo). */
  async function addOnce(items: ParsedEnhancement[], outcomes: Outcome[], origin: ChangeOrigin, onDuplicates: Map<string, Set<string>>): Promise<ParsedEnhancement[]> {
    const ids = [...new Set(items.map((item) => item.value.reference_id))];
    // Both reads at once, so the writer lease waits one round trip instead of two: duplicates are
    // asked for every target and used only for the canonical-like ones, as if asked after the read.
    const [rows, groups] = await Promise.all([deps.references.getManyHeld(ids), deps.references.duplicatesOf(ids)]);
    const references = new Map(rows.map((row) => [row._id, row]));
    const added = new Map<string, StoredEnhancement[]>();
    const itemsOf = new Map<string, ParsedEnhancement[]>();
    for (const item of items) itemsOf.set(item.value.reference_id, [...(itemsOf.get(item.value.reference_id) ?? []), item]);
    const now = new Date();
    const createdAt = now.toISOString();
    for (const item of items) {
      const referenceId = item.value.reference_id;
      const reference = references.get(referenceId);
      if (!reference) {
        outcomes[item.index] = { reference_id: referenceId, status: 'failed', enhancement_id: '', error: `Reference with id ${referenceId} does not exist.`, reference_version: 0 };
        continue;
      }
      const pendingHere = added.get(referenceId) ?? [];
      if (item.assigned && reference.enhancements.some((enhancement) => enhancement.id === item.id)) {
        outcomes[item.index] = { reference_id: referenceId, status: 'stored', enhancement_id: item.id, error: '', reference_version: reference.version };
        if (!isCanonicalLike(reference)) onDuplicates.set(referenceId, (onDuplicates.get(referenceId) ?? new Set()).add(item.id));
        continue;
      }
      const duplicates = isCanonicalLike(reference) ? (groups.get(referenceId) ?? []) : [];
      const parents = item.value.derived_from ?? [];
      if (parents.length > 0) {
        const known = new Set([reference, ...duplicates].flatMap((row) => row.enhancements.map((enhancement) => enhancement.id)));
        for (const enhancement of pendingHere) known.add(enhancement.id);
        const missing = [...new Set(parents)].filter((id) => !known.has(id));
        if (missing.length > 0) {
          outcomes[item.index] = { reference_id: referenceId, status: 'failed', enhancement_id: '', error: missingParentsMessage(missing), reference_version: 0 };
          continue;
        }
      }
      const content = item.value.content as unknown as Record<string, unknown>;
      const fingerprint = enhancementFingerprint({ source: item.value.source, visibility: item.value.visibility, robot_version: item.value.robot_version ?? null, derived_from: item.value.derived_from ?? null, content });
      const existing = findCurrent(reference.enhancements, fingerprint, item.id) ?? findCurrent(pendingHere, fingerprint, item.id);
      if (existing) {
        // The same assigned id twice in one call is one enhancement, stored once.
        const status = existing.id === item.id ? 'stored' : 'discarded';
        outcomes[item.index] = { reference_id: referenceId, status, enhancement_id: existing.id, error: '', reference_version: status === 'stored' ? reference.version + 1 : reference.version };
        continue;
      }
      added.set(referenceId, [
        ...pendingHere,
        {
          id: item.id,
          reference_id: referenceId,
          source: item.value.source,
          visibility: item.value.visibility,
          robot_version: item.value.robot_version ?? null,
          derived_from: item.value.derived_from ?? null,
          content,
          created_at: createdAt,
          superseded_by: null,
          fingerprint,
        },
      ]);
      outcomes[item.index] = { reference_id: referenceId, status: 'stored', enhancement_id: item.id, error: '', reference_version: reference.version + 1 };
    }
    const writes = [...added].map(([id, enhancements]) => {
      const reference = references.get(id) as ReferenceDocument;
      const after: ReferenceDocument = { ...reference, enhancements: [...reference.enhancements, ...enhancements], version: reference.version + 1 };
      // Only an enhancement of a type the engine reads (a bibliographic one) may change what deduplication compares.
      const readByEngine = enhancements.some((enhancement) => deps.engine.recordEnhancementTypes.includes(String(enhancement.content.enhancement_type)));
      const comparison = readByEngine ? comparisonUpdate(deps.engine, deps.trustedTypes, reference, after) : undefined;
      const dedupRecord = comparison?.dedupRecord;
      if (dedupRecord) after.dedup_record = dedupRecord;
      const duplicates = isCanonicalLike(after) ? (groups.get(id) ?? []) : [];
      // Without duplicates the view and changeset are the document's own content: the relay rebuilds them.
      const event =
        duplicates.length === 0
          ? compactEnhancedEntry({ reference: after, addedFrom: reference.enhancements.length, origin, now })
          : referenceChangedEntry({ kind: 'enhanced', reference: after, duplicates, changeset: enhancementChangeset(enhancements), origin, now });
      return { id, expectedVersion: reference.version, set: { version: after.version, ...(dedupRecord ? { dedup_record: dedupRecord } : {}) }, events: [event], push: { enhancements: { $each: enhancements } }, marker: enhancements[0].id, after, blockingKeys: comparison?.blockingKeys, years: comparison?.years ?? null };
    });
    if (writes.length === 0) return [];
    // The new content's blocking keys go first: a key without its content yet only adds a candidate.
    await deps.blocking.addMany(writes.flatMap((write) => (write.blockingKeys ? [{ referenceId: write.id, keys: write.blockingKeys, years: write.years }] : [])), now);
    const conflicts = await deps.references.updateVersionedMany(writes);
    const conflicted = new Set(conflicts);
    deps.references.rememberUnrelayedContent(writes.filter((write) => !conflicted.has(write.id)).map((write) => write.after));
    if (conflicts.length < writes.length) deps.onEvents();
    for (const [id, enhancements] of added) {
      if (conflicted.has(id) || isCanonicalLike(references.get(id) as ReferenceDocument)) continue;
      const ids = onDuplicates.get(id) ?? new Set<string>();
      for (const enhancement of enhancements) ids.add(enhancement.id);
      onDuplicates.set(id, ids);
    }
    // Not written: another writer changed those references first; their items are decided again.
    return conflicts.flatMap((id) => itemsOf.get(id) ?? []);
  }
}
