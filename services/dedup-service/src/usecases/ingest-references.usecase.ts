import { identifierIdentityKey, QUEUES, uuidv7, type DeduplicationJob, type ExternalIdentifier } from '@destiny/contracts';
import type { MessageBus } from '@destiny/platform';
import type { Db } from 'mongodb';
import type { Logger } from '@destiny/platform';
import { COLLECTIONS } from '../data-access/collections';
import { pendingDecision, type DecisionRepository } from '../data-access/decision.repository';
import { ConcurrentChangeError, insertIgnoringDuplicates, WRITE_ROUNDS, type IdentifierClaimWrite, type ReferenceRepository } from '../data-access/reference.repository';
import { planIngest, toStoredEnhancement, type IncomingReference, type IngestStrategy } from '../domain/ingest.planner';
import { enhancementChangeset, identityKeys, isCanonicalLike, type ReferenceDocument, type StoredEnhancement } from '../domain/reference.model';
import { compactEnhancedEntry, compactOwnChangeEntry, referenceChangedEntry } from '../domain/reference-changed.event-builder';
import { comparisonUpdate, storedDedupRecord } from '../domain/dedup-record';
import type { BlockingKeyRepository } from '../data-access/blocking-key.repository';
import type { DeduplicationEnginePort } from '../domain/deduplication-engine.port';
import { ServiceError } from '@destiny/platform';
import { createRefreshCanonicalViews } from './refresh-canonical-views';
import { mayExceedReferenceLimit, MAX_REFERENCE_BYTES, referenceTooLarge, storedSize } from '../data-access/reference-size';

/** What marking an enhancement superseded adds to its reference (the field and an id). */
const SUPERSEDED_BY_BYTES = 64;

export interface IngestLineInput {
  line_number: number;
  reference_json: string;
  import_result_id: string;
}

export interface IngestOutcome {
  line_number: number;
  /** completed | failed */
  status: string;
  reference_id: string;
  failure_details: string;
}

interface OutcomeDocument {
  _id: string;
  line_number: number;
  status: string;
  reference_id: string;
  failure_details: string;
  created_at: Date;
}

/**
 * A write conflict or a lost writer lease is transient: answered 409 / 503 so import-service marks
 * the lines `retrying` and sends them again (§8.5); the chunk is idempotent by result id. (An
 * unreachable database is answered 503 by the gRPC server for every handler.)
 */
function asRetryable(error: unknown): unknown {
  if (error instanceof ConcurrentChangeError) return ServiceError.conflict(error.message);
  if ((error as Error | undefined)?.name === 'WriterLeaseLostError') return new ServiceError(503, 'The reference store is unavailable.');
  return error;
}

const STRATEGIES = new Set<IngestStrategy>(['discard', 'fail', 'merge_defensive', 'merge_aggressive', 'append']);

export function createIngestReferences(deps: {
  db: Db;
  references: ReferenceRepository;
  decisions: DecisionRepository;
  blocking: BlockingKeyRepository;
  engine: DeduplicationEnginePort;
  trustedTypes: ReadonlySet<string>;
  bus: MessageBus;
  logger: Logger;
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  onEvents(): void;
}) {
  const outcomes = deps.db.collection<OutcomeDocument>(COLLECTIONS.ingestOutcomes);
  const refreshCanonicals = createRefreshCanonicalViews(deps);

  /**
   * Ingests a chunk of validated lines, idempotent by import result id. With `give_up_failure_details`
   * (the caller has given up on the lines), only what earlier attempts stored is finished, and lines
   * that store nothing (a collision reported, a line discarded) get their own outcome; the other lines
   * are recorded failed with those details, so no attempt still on its way stores them later.
   */
  async function ingest(request: { import_batch_id: string; collision_strategy: string; lines: IngestLineInput[]; give_up_failure_details?: string }): Promise<IngestOutcome[]> {
    const strategy = (request.collision_strategy || 'fail') as IngestStrategy;
    if (!STRATEGIES.has(strategy)) throw ServiceError.unprocessable(`Unsupported collision strategy: ${request.collision_strategy}.`);
    const lines = request.lines.map((line) => {
      let incoming: IncomingReference;
      try {
        const parsed = JSON.parse(line.reference_json) as Partial<IncomingReference>;
        if (!Array.isArray(parsed.identifiers) || parsed.identifiers.length === 0) throw new Error('no identifiers');
        incoming = { visibility: parsed.visibility ?? 'public', identifiers: parsed.identifiers, enhancements: parsed.enhancements ?? [] };
      } catch {
        throw ServiceError.unprocessable(`Line ${line.line_number} is not a validated ReferenceFileInput.`);
      }
      if (!line.import_result_id) throw ServiceError.unprocessable(`Line ${line.line_number} has no import_result_id.`);
      return { ...line, incoming };
    });
    try {
      return await deps.exclusive(() => ingestLines(strategy, lines, request.give_up_failure_details || undefined));
    } catch (error) {
      throw asRetryable(error);
    }
  }

  async function ingestLines(strategy: IngestStrategy, lines: Array<IngestLineInput & { incoming: IncomingReference }>, giveUpFailureDetails: string | undefined): Promise<IngestOutcome[]> {
    const resultIds = lines.map((line) => line.import_result_id);
    // Three independent reads at once (the writer lease is held meanwhile); lines already done only
    // widen the last two, whose answers are consulted for pending lines alone.
    const [doneRows, earlierRows, owners] = await Promise.all([
      outcomes.find({ _id: { $in: resultIds } }).toArray(),
      deps.references.createdByResults(resultIds),
      deps.references.owners(lines.flatMap((line) => identityKeys(line.incoming.identifiers))),
    ]);
    const done = new Map(doneRows.map((row) => [row._id, row]));
    const earlier = new Map(earlierRows.filter((row) => !done.has(row.import_result_id as string)).map((row) => [row.import_result_id as string, row]));
    const known = new Map((await deps.references.getManyHeld([...new Set(owners.values())])).map((row) => [row._id, row]));
    // Claims are written before the references they name, so an attempt that stopped between the
    // two left claims on references never stored: those identifiers are free, and the next line
    // to claim one takes the claim over (the stopped attempt, sent again, plans like any other).
    const orphanedOwners = new Map<string, string>();
    for (const [key, owner] of owners) {
      if (known.has(owner)) continue;
      orphanedOwners.set(key, owner);
      owners.delete(key);
    }
    const now = new Date();
    const nowText = now.toISOString();

    const created: ReferenceDocument[] = [];
    const merged = new Map<string, MergeChange>();
    const claims: IdentifierClaimWrite[] = [];
    /** Claims finishing an earlier attempt's work: one that lost its identifier meanwhile cannot be undone here. */
    const settledClaims = new Set<string>();
    const mergedSizes = new Map<string, number>();
    const strayClaims: Array<{ _id: string; reference_id: string }> = [];
    const newOutcomes: OutcomeDocument[] = [];
    const result: IngestOutcome[] = [];
    /** Duplicates an earlier attempt merged lines into, with the enhancements those lines hold: their canonicals are refreshed again. */
    const mergedEarlierIntoDuplicates = new Map<string, Set<string>>();

    const record = (line: IngestLineInput, status: string, referenceId: string, failureDetails: string) => {
      const outcome = { line_number: line.line_number, status, reference_id: referenceId, failure_details: failureDetails };
      newOutcomes.push({ _id: line.import_result_id, ...outcome, created_at: now });
      result.push(outcome);
    };
    /** The reference an earlier attempt merged the line into: one owning its identifiers lists its result id. */
    const mergedEarlier = (line: IngestLineInput & { incoming: IncomingReference }): string | undefined =>
      identityKeys(line.incoming.identifiers)
        .map((key) => owners.get(key))
        .find((owner) => owner !== undefined && (known.get(owner)?.merged_import_results ?? []).includes(line.import_result_id));
    const claimAll = (referenceId: string, identifiers: ExternalIdentifier[], settled = false) => {
      for (const key of identityKeys(identifiers)) {
        owners.set(key, referenceId);
        const replaces = orphanedOwners.get(key);
        orphanedOwners.delete(key);
        claims.push(replaces === undefined ? { _id: key, reference_id: referenceId } : { _id: key, reference_id: referenceId, replaces });
        if (settled) settledClaims.add(key);
      }
    };

    for (const line of lines) {
      const previous = done.get(line.import_result_id);
      if (previous) {
        result.push({ line_number: previous.line_number, status: previous.status, reference_id: previous.reference_id, failure_details: previous.failure_details });
        continue;
      }
      const again = earlier.get(line.import_result_id);
      if (again) {
        // An earlier attempt stored it and stopped before recording the outcome: finish that work.
        claimAll(again._id, again.identifiers, true);
        known.set(again._id, again);
        created.push(again);
        record(line, 'completed', again._id, '');
        continue;
      }
      const mergedInto = mergedEarlier(line);
      if (mergedInto) {
        // An earlier attempt merged it (its result id is on the reference, written with the merge)
        // and stopped before recording the outcome: merging again would add its enhancements twice.
        // Only the identifiers the merge added are claimed (a defensive merge keeps an existing key's value).
        const target = merged.get(mergedInto)?.after ?? known.get(mergedInto);
        const held = new Set(identityKeys(target?.identifiers ?? []));
        claimAll(mergedInto, line.incoming.identifiers.filter((identifier) => held.has(identifierIdentityKey(identifier))), true);
        // That attempt may also have stopped before refreshing the canonical of a duplicate it merged
        // into (a separate, later write): refreshed again, naming the stored enhancements the line carries.
        if (target && !isCanonicalLike(target)) {
          const carried = new Set(line.incoming.enhancements.map((enhancement) => toStoredEnhancement(enhancement, mergedInto, '', nowText).fingerprint));
          const ids = mergedEarlierIntoDuplicates.get(mergedInto) ?? new Set<string>();
          for (const enhancement of target.enhancements) if (carried.has(enhancement.fingerprint)) ids.add(enhancement.id);
          mergedEarlierIntoDuplicates.set(mergedInto, ids);
        }
        record(line, 'completed', mergedInto, '');
        continue;
      }
      const plan = planIngest({
        lineNumber: line.line_number,
        importResultId: line.import_result_id,
        incoming: line.incoming,
        strategy,
        ownerOf: (key) => owners.get(key),
        referenceById: (id) => merged.get(id)?.after ?? known.get(id),
        newId: () => uuidv7(),
        now: nowText,
      });
      // A merge adding nothing (the line is already all there) writes nothing, as a collision reported or a line discarded.
      const writesNothing = plan.kind === 'fail' || plan.kind === 'discard' || (plan.kind === 'merge' && plan.identifiers.length === 0 && plan.enhancements.length === 0 && plan.supersede.length === 0);
      if (giveUpFailureDetails !== undefined && !writesNothing) {
        // Given up: a line whose plan writes nothing is answered as any attempt would answer it; one
        // that would write is answered by what an earlier attempt left (found above, else nothing).
        record(line, 'failed', '', giveUpFailureDetails);
        // A stopped attempt's claims for a merge it never wrote name a reference without the
        // identifier: released, or the identifier would stay taken by a reference not holding it.
        for (const key of identityKeys(line.incoming.identifiers)) {
          const owner = owners.get(key);
          const holder = owner === undefined ? undefined : known.get(owner);
          if (owner !== undefined && holder && !identityKeys(holder.identifiers).includes(key)) strayClaims.push({ _id: key, reference_id: owner });
        }
        continue;
      }
      switch (plan.kind) {
        case 'create':
          plan.reference.dedup_record = storedDedupRecord(deps.engine, plan.reference);
          if (mayExceedReferenceLimit(line.reference_json.length) && storedSize(plan.reference) > MAX_REFERENCE_BYTES) {
            record(line, 'failed', '', `Entry ${line.line_number}:\n\n${referenceTooLarge()}`);
            break;
          }
          known.set(plan.reference._id, plan.reference);
          claimAll(plan.reference._id, plan.reference.identifiers);
          created.push(plan.reference);
          record(line, 'completed', plan.reference._id, '');
          break;
        case 'merge': {
          if (writesNothing) {
            record(line, 'completed', plan.referenceId, '');
            break;
          }
          // Sizes are tracked per reference through the chunk, so several lines merging into one are counted together.
          const addedSize = storedSize({ enhancements: plan.enhancements, identifiers: plan.identifiers });
          const grown =
            (mergedSizes.get(plan.referenceId) ?? storedSize(merged.get(plan.referenceId)?.after ?? (known.get(plan.referenceId) as ReferenceDocument))) +
            addedSize +
            plan.supersede.length * SUPERSEDED_BY_BYTES;
          if (grown + (await eventSizeIfLarge(known.get(plan.referenceId) as ReferenceDocument, grown, addedSize)) > MAX_REFERENCE_BYTES) {
            record(line, 'failed', '', `Entry ${line.line_number}:\n\n${referenceTooLarge(plan.referenceId)}`);
            break;
          }
          mergedSizes.set(plan.referenceId, grown);
          const base = merged.get(plan.referenceId) ?? { before: known.get(plan.referenceId) as ReferenceDocument, after: structuredClone(known.get(plan.referenceId) as ReferenceDocument), resultIds: [], added: [] };
          // Marked after the line's own enhancements are appended: a later one of the line may supersede an earlier one.
          const superseded = new Map(plan.supersede.map((entry) => [entry.id, entry.by]));
          base.after.enhancements.push(...plan.enhancements);
          base.after.enhancements = base.after.enhancements.map((enhancement) => (superseded.has(enhancement.id) ? { ...enhancement, superseded_by: superseded.get(enhancement.id) as string } : enhancement));
          base.after.identifiers.push(...plan.identifiers);
          // The changeset names what is current after the chunk, not versions superseded within it.
          base.added = [...base.added, ...plan.enhancements].filter((enhancement) => !superseded.has(enhancement.id));
          base.resultIds.push(line.import_result_id);
          merged.set(plan.referenceId, base);
          claimAll(plan.referenceId, plan.identifiers);
          record(line, 'completed', plan.referenceId, '');
          break;
        }
        case 'discard':
          record(line, 'completed', '', '');
          break;
        case 'fail':
          record(line, 'failed', '', plan.detail);
          break;
      }
    }

    // Order matters for crash safety: the identifier claims first, so no other chunk can store an
    // identifier a stopped attempt already stored; then the pending decisions, so a reference is
    // never stored without one (an attempt that stops after this point and is never sent again
    // still has its references decided: the sweeper queues stale pending decisions); then the
    // references (carrying their import result ids) and merges, and the outcomes last.
    const lost = (await deps.references.claim(claims)).filter((key) => !settledClaims.has(key));
    // Only another writer (a second replica past a lost lease) can take a key between the read and the claim.
    if (lost.length > 0) throw new ConcurrentChangeError(owners.get(lost[0]) ?? lost[0]);
    await deps.references.releaseClaims(strayClaims.filter((stray) => !claims.some((claim) => claim._id === stray._id)));
    const pending = created.map((reference) => pendingDecision(reference.import_decision_id as string, reference._id, 'import', now));
    await deps.decisions.insert(pending);
    // Each new reference carries its `imported` event (§13.2: searchable from storage, percolated
    // only from its first decision), compact as a decision's: its content is the document's.
    const inserted = created.filter((reference) => !earlier.has(reference.import_result_id as string));
    await deps.references.insertNew(inserted, (reference) => [compactOwnChangeEntry({ kind: 'imported', reference, now })]);
    deps.references.rememberUnrelayedContent(inserted);
    const groups = await deps.references.duplicatesOf([...merged.values()].filter((change) => isCanonicalLike(change.before)).map((change) => change.before._id));
    // The new content's blocking keys go first: a key without its content yet only adds a candidate.
    const comparisons = new Map([...merged].map(([id, change]) => [id, comparisonUpdate(deps.engine, deps.trustedTypes, change.before, change.after)]));
    await deps.blocking.addMany([...comparisons].flatMap(([referenceId, update]) => (update ? [{ referenceId, keys: update.blockingKeys, years: update.years }] : [])), now);
    for (const [id, change] of merged) await writeMerge(id, change, groups.get(id) ?? [], comparisons.get(id)?.dedupRecord, now);
    // A duplicate is searchable only through its canonical's view, which the merge just changed.
    const mergedDuplicates = new Map([...merged].filter(([, change]) => !isCanonicalLike(change.before)).map(([id, change]) => [id, new Set(change.added.map((enhancement) => enhancement.id))]));
    for (const [id, ids] of mergedEarlierIntoDuplicates) mergedDuplicates.set(id, new Set([...(mergedDuplicates.get(id) ?? []), ...ids]));
    if (mergedDuplicates.size > 0) await refreshCanonicals(mergedDuplicates, {});
    if (pending.length > 0) {
      const job: DeduplicationJob = { job_id: uuidv7(), reference_ids: pending.map((item) => item.reference_id), decision_ids: pending.map((item) => item._id) };
      await deps.bus.sendToQueue(QUEUES.dedupServiceDeduplication, job, { messageId: job.job_id });
    }
    await insertIgnoringDuplicates(outcomes, newOutcomes);
    if (merged.size > 0 || inserted.length > 0) deps.onEvents();
    return result;
  }

  /**
   * What a merge's event adds to a large reference until relayed: nothing much without duplicates
   * (a compact entry), else its view with the duplicates' content and the changeset. Only a
   * reference already near the limit is looked at: below half of it, nothing can overflow.
   */
  async function eventSizeIfLarge(target: ReferenceDocument, grown: number, addedSize: number): Promise<number> {
    if (grown * 2 + addedSize <= MAX_REFERENCE_BYTES || !isCanonicalLike(target)) return 0;
    const duplicates = (await deps.references.duplicatesOf([target._id])).get(target._id) ?? [];
    return duplicates.length === 0 ? 0 : grown + duplicates.reduce((total, duplicate) => total + storedSize(duplicate), 0) + addedSize;
  }

  /**
   * The decision lane runs beside ingestion and may decide the reference between the read and this
   * write; its content cannot change (content is written in this lane only), so the merge is
   * written again on the decided version instead of failing the whole chunk.
   */
  async function writeMerge(id: string, change: MergeChange, duplicates: ReferenceDocument[], dedupRecord: ReferenceDocument['dedup_record'] | undefined, now: Date): Promise<void> {
    // Identifiers alone change the view too (search answers with the indexed view), so they also make an event.
    const changed = change.added.length > 0 || change.after.identifiers.length > change.before.identifiers.length;
    for (let round = 1; ; round += 1) {
      const reference = { ...change.after, version: change.before.version + 1 };
      // Without duplicates the view and changeset are the document's own content: the relay rebuilds
      // them, so the outbox does not hold two more copies of a reference that may be large.
      const events = !changed
        ? []
        : duplicates.length === 0
          ? [compactEnhancedEntry({ reference, addedFrom: change.before.enhancements.length, now })]
          : [referenceChangedEntry({ kind: 'enhanced', reference, duplicates, changeset: enhancementChangeset(change.added), now })];
      try {
        await deps.references.update(
          id,
          change.before.version,
          { identifiers: change.after.identifiers, enhancements: change.after.enhancements, version: change.before.version + (events.length > 0 ? 1 : 0), ...(dedupRecord ? { dedup_record: dedupRecord } : {}) },
          events,
          { $addToSet: { merged_import_results: { $each: change.resultIds } } },
        );
        return;
      } catch (error) {
        if (!(error instanceof ConcurrentChangeError) || round === WRITE_ROUNDS) throw error;
        const [current] = await deps.references.getMany([id]);
        if (!current || contentKey(current) !== contentKey(change.before)) throw error;
        change.before = current;
        change.after = { ...current, identifiers: change.after.identifiers, enhancements: change.after.enhancements };
        duplicates = isCanonicalLike(current) ? ((await deps.references.duplicatesOf([id])).get(id) ?? []) : [];
      }
    }
  }

  return ingest;
}

interface MergeChange {
  before: ReferenceDocument;
  after: ReferenceDocument;
  resultIds: string[];
  added: StoredEnhancement[];
}

/** What a merge was planned on: the identifiers, and the enhancements with what supersedes them. */
function contentKey(reference: ReferenceDocument): string {
  return JSON.stringify([identityKeys(reference.identifiers), reference.enhancements.map((enhancement) => [enhancement.id, enhancement.superseded_by ?? null])]);
}
