import {
  DeduplicationCandidatesIn,
  InvokeDeduplicationIn,
  MakeDuplicateDecisionsIn,
  QUEUES,
  uuidv7,
  validate,
  type DeduplicationCandidates,
  type DeduplicationJob,
  type MakeDuplicateDecisionResult,
} from '@destiny/contracts';
import { ServiceError, type MessageBus } from '@destiny/platform';
import { candidatesFound, type BlockingKeyRepository } from '../data-access/blocking-key.repository';
import { pendingDecision, type DecisionRepository } from '../data-access/decision.repository';
import type { ReferenceRepository } from '../data-access/reference.repository';
import { dedupRecordOf } from '../domain/dedup-record';
import { groupCanonicalId } from '../domain/reference.model';
import type { DeduplicationEnginePort } from '../domain/deduplication-engine.port';
import { DecisionCommitConflict, DecisionSession, GroupTooLargeError } from './decision.session';
import { DEDUPLICATION_JOB_SIZE } from './process-deduplication.usecase';

/** How often a manual batch is decided again when a reference changed under it, before 409. */
const MANUAL_DECISION_ATTEMPTS = 5;

interface Deps {
  references: ReferenceRepository;
  decisions: DecisionRepository;
  blocking: BlockingKeyRepository;
  engine: DeduplicationEnginePort;
  bus: MessageBus;
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  onEvents(): void;
}

/**
 * §5.1's 422 for references named in the body that do not exist. A batch existence check (`set`:
 * the invoke endpoint's list) names the missing ids inside `[…]` however many there are; checks of
 * single references name one id bare.
 */
function missingReferences(ids: readonly string[], found: ReadonlySet<string>, form: 'set' | 'each'): void {
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length === 0) return;
  if (missing.length === 1 && form === 'each') throw ServiceError.unprocessable(`Reference with id ${missing[0]} does not exist.`);
  throw ServiceError.unprocessable(`Reference with id [${missing.join(', ')}] does not exist.`);
}

export function createDuplicateDecisionUsecases(deps: Deps) {
  /** §15.7: applied in order, person/manual_api; all or nothing. */
  async function makeDecisions(body: unknown): Promise<MakeDuplicateDecisionResult[]> {
    const parsed = validate(MakeDuplicateDecisionsIn, body, 'body');
    if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
    // The ingest lane may change a reference between the read and the write (a merge into it): the
    // batch is then decided again on what is stored, a few times, before the caller is told (409).
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await deps.exclusive(() => decideOnce(parsed.value));
      } catch (error) {
        if (error instanceof GroupTooLargeError) throw ServiceError.unprocessable(error.message);
        if (!(error instanceof DecisionCommitConflict)) throw error;
        if (attempt >= MANUAL_DECISION_ATTEMPTS) throw ServiceError.conflict('A reference changed while the decisions were applied; some may not have been. Send the request again.');
      }
    }
  }

  async function decideOnce(items: MakeDuplicateDecisionsIn): Promise<MakeDuplicateDecisionResult[]> {
    const session = new DecisionSession(deps);
    const ids = items.flatMap((item) => [item.reference_id, ...(item.canonical_reference_id ? [item.canonical_reference_id] : [])]);
    await session.load(ids);
    missingReferences(ids, new Set(ids.filter((id) => session.get(id) !== undefined)), 'each');
    const results: MakeDuplicateDecisionResult[] = [];
    for (const item of items) {
      const applied = session.apply(
        item.reference_id,
        {
          determination: item.duplicate_determination,
          canonicalId: item.canonical_reference_id ?? null,
          authority: 'person',
          trigger: 'manual_api',
          detail: item.detail ?? null,
          candidateIds: item.canonical_reference_id ? [item.canonical_reference_id] : [],
        },
        { manual: true },
      );
      results.push({
        id: applied.decision._id,
        reference_id: item.reference_id,
        outcome: applied.decision.active_decision ? item.duplicate_determination : 'decoupled',
        canonical_reference_id: applied.decision.canonical_reference_id,
        active_decision: applied.decision.active_decision,
        decision_authority: applied.decision.decision_authority,
        decision_trigger: applied.decision.decision_trigger,
        detail: applied.decision.detail,
      });
    }
    // A conflict leaves what was written consistent (DecisionSession.settleUnapplied) and is retried above.
    if (await session.commit()) deps.onEvents();
    return results;
  }

  /** §15.6: a new pending decision per id (system/invoke_api), queued. */
  async function invoke(body: unknown): Promise<void> {
    const parsed = validate(InvokeDeduplicationIn, body, 'body');
    if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
    const ids = [...new Set(parsed.value.reference_ids)];
    if (ids.length === 0) return;
    missingReferences(ids, await deps.references.existing(ids), 'set');
    const now = new Date();
    const pending = ids.map((id) => pendingDecision(uuidv7(), id, 'invoke_api', now));
    await deps.decisions.insert(pending);
    // Jobs of import-chunk size: one job is one pass under the writer lease, so a list of any
    // length is decided in short passes that ingestion can interleave with.
    for (let start = 0; start < pending.length; start += DEDUPLICATION_JOB_SIZE) {
      const group = pending.slice(start, start + DEDUPLICATION_JOB_SIZE);
      const job: DeduplicationJob = { job_id: uuidv7(), reference_ids: group.map((item) => item.reference_id), decision_ids: group.map((item) => item._id) };
      await deps.bus.sendToQueue(QUEUES.dedupServiceDeduplication, job, { messageId: job.job_id });
    }
  }

  /**
   * Read-only: whether each reference is searchable and which groups' canonicals blocking finds for
   * it, for all the references at once (one blocking lookup, candidates read by their summaries).
   */
  async function candidates(body: unknown): Promise<DeduplicationCandidates[]> {
    const parsed = validate(DeduplicationCandidatesIn, body, 'body');
    if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
    const ids = parsed.value.reference_ids;
    const byId = new Map((await deps.references.getMany(ids)).map((row) => [row._id, row]));
    missingReferences(ids, new Set(byId.keys()), 'set');
    const asked = new Map([...byId].map(([id, reference]) => {
      const record = dedupRecordOf(deps.engine, reference);
      return [id, { searchable: deps.engine.isSearchable(record), keys: deps.engine.probeKeys(record), year: record.year }];
    }));
    const lookup = await deps.blocking.lookup([...asked.values()].flatMap((item) => item.keys));
    // As in the decision itself: a candidate whose filed years rule a match out is not one.
    const found = new Map([...asked].map(([id, item]) => [id, candidatesFound(lookup, id, item.keys, (years) => deps.engine.yearsMayMatch(item.year, years))]));
    const states = new Map((await deps.references.summaries([...new Set([...found.values()].flat())])).map((row) => [row._id, row]));
    // A duplicate found by a key stands for its group's canonical, as in the decision itself.
    const unread = [...states.values()].map(groupCanonicalId).filter((head): head is string => head !== null && !states.has(head));
    for (const row of await deps.references.summaries([...new Set(unread)])) states.set(row._id, row);
    return ids.map((id) => {
      const { searchable } = asked.get(id) as { searchable: boolean };
      const heads = new Set((found.get(id) ?? []).map((candidate) => groupCanonicalId(states.get(candidate))));
      const canonical = [...heads].filter((head): head is string => head !== null && head !== id && states.get(head)?.active_decision?.duplicate_determination === 'canonical').sort();
      return { reference_id: id, searchable, candidate_canonical_ids: searchable ? canonical : [] };
    });
  }

  return { makeDecisions, invoke, candidates };
}
