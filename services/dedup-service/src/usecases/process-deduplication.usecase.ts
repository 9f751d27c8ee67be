import type { DeduplicationJob } from '@destiny/contracts';
import type { Logger } from '@destiny/platform';
import { candidatesFound, type BlockingKeyRepository } from '../data-access/blocking-key.repository';
import type { DecisionRepository } from '../data-access/decision.repository';
import type { ReferenceRepository } from '../data-access/reference.repository';
import type { DedupRecord, DeduplicationEnginePort, GroupCandidate } from '../domain/deduplication-engine.port';
import { groupCanonicalId, type ReferenceDocument } from '../domain/reference.model';
import { trustedKeys } from '../domain/trusted-identifiers';
import { DecisionSession, GroupTooLargeError, type ProposedDecision } from './decision.session';

export interface DeduplicationDeps {
  references: ReferenceRepository;
  decisions: DecisionRepository;
  blocking: BlockingKeyRepository;
  engine: DeduplicationEnginePort;
  trustedTypes: ReadonlySet<string>;
  /** The `enable_canonical_candidate_search` flag (§15.3 step 2); off leaves only the shortcut. */
  candidateSearch?: boolean;
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  onEvents(): void;
  logger: Logger;
}

export const CANDIDATE_SEARCH_DISABLED_DETAIL = 'Canonical candidate search is disabled.';
export const TRUSTED_IDENTIFIERS_UNMATCHED_DETAIL = 'New reference with trusted identifier(s), no existing matches';
export const GROUP_TOO_LARGE_DETAIL = 'Refused: the duplicate group would be larger than a stored reference may hold.';

/** Decisions a queued job carries at most: an import chunk's worth, so one job is one short pass. */
export const DEDUPLICATION_JOB_SIZE = 500;

/** Decisions of waiting jobs decided together in one pass at most (four import chunks of 500). */
export const MAX_COALESCED_DECISIONS = 2000;

/**
 * Processes the pending decisions of a job (§15.3): trusted-identifier shortcut, then blocking
 * candidates and the engine's decision, applied with §15.4. Decisions no longer pending are
 * skipped, so a job delivered twice changes nothing the second time.
 */
export function createProcessDeduplication(deps: DeduplicationDeps, options: { maxCoalescedDecisions?: number } = {}) {
  const maxCoalesced = options.maxCoalescedDecisions ?? MAX_COALESCED_DECISIONS;
  const waiting: Array<{ decisionIds: readonly string[]; resolve: () => void; reject: (error: unknown) => void }> = [];
  let running = false;

  // Jobs that arrive while one is being decided wait, and are then decided together in one pass:
  // a lane that has fallen behind the ingestion spends one set of round trips on several jobs.
  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (waiting.length > 0) {
        let count = 0;
        let taken = 0;
        while (taken < waiting.length && (taken === 0 || count + waiting[taken].decisionIds.length <= maxCoalesced)) count += waiting[taken++].decisionIds.length;
        const batch = waiting.splice(0, taken);
        try {
          await deps.exclusive(() => decideRefusingOversizeGroups(batch.flatMap((item) => item.decisionIds)));
          for (const item of batch) item.resolve();
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      running = false;
    }
  }

  return (job: Pick<DeduplicationJob, 'reference_ids' | 'decision_ids'>) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ decisionIds: job.decision_ids, resolve, reject });
      void drain();
    });

  /**
   * A group whose canonical would outgrow a stored document (its events carry every member's
   * content) is refused for this pass's new members only: the pass is decided again with their
   * joins proposed for review, instead of failing with every job coalesced into it, again and again.
   */
  async function decideRefusingOversizeGroups(decisionIds: readonly string[]): Promise<void> {
    const refused = new Set<string>();
    for (;;) {
      try {
        return await decide(decisionIds, refused);
      } catch (error) {
        if (!(error instanceof GroupTooLargeError) || refused.has(error.canonicalId)) throw error;
        deps.logger.warn({ reference_id: error.canonicalId }, 'a duplicate group would outgrow a stored reference; its new members are proposed for review');
        refused.add(error.canonicalId);
      }
    }
  }

  async function decide(decisionIds: readonly string[], refusedGroups: ReadonlySet<string>): Promise<void> {
    const started = performance.now();
    const pending = (await deps.decisions.getMany(decisionIds)).filter((decision) => decision.duplicate_determination === 'pending');
    if (pending.length === 0) return;
    const session = new DecisionSession(deps);
    await session.load(pending.map((decision) => decision.reference_id));
    // A reference already carrying its pending decision had it applied by an attempt that stopped
    // before recording it: that decision is finished as applied, not decided again.
    const decisions: typeof pending = [];
    for (const decision of pending) {
      if (session.get(decision.reference_id)?.active_decision?.decision_id !== decision._id) {
        decisions.push(decision);
        continue;
      }
      const replaced = (await deps.decisions.forReference(decision.reference_id)).filter((other) => other.active_decision && other._id !== decision._id);
      session.finishApplied(decision, replaced);
      deps.logger.warn({ reference_id: decision.reference_id, decision_id: decision._id }, 'a duplicate decision applied by an interrupted attempt is recorded as applied');
    }
    const keysOf = new Map<string, { trusted: string[]; blocking: string[]; probed: string[]; year: number | null }>();
    for (const decision of decisions) {
      const reference = session.get(decision.reference_id);
      if (!reference) continue;
      const record = session.recordOf(reference._id) as DedupRecord;
      const { filed, probed } = deps.engine.blockingKeySets(record);
      keysOf.set(reference._id, { trusted: trustedKeys(reference.identifiers, deps.trustedTypes), blocking: filed, probed, year: record.year });
    }
    const trustedKeyList = [...keysOf.values()].flatMap((keys) => keys.trusted);
    const found = await deps.blocking.lookup([...trustedKeyList, ...[...keysOf.values()].flatMap((keys) => keys.probed)]);
    const { candidates: index, years: filedYears } = found;
    // The engine's candidates of one reference: what its probed keys found, less what the filed
    // years rule out (the year veto), which is then never read.
    const candidatesOf = (referenceId: string, keys: { probed: string[]; year: number | null }) =>
      candidatesFound(found, referenceId, keys.probed, (years) => deps.engine.yearsMayMatch(keys.year, years));
    // The trusted-identifier shortcut may group the references it finds, so those are read whole;
    // the engine's candidates are only compared against, so their kept records and state suffice.
    const sharingTrusted = [...new Set(trustedKeyList.flatMap((key) => index.get(key) ?? []))];
    if (sharingTrusted.length > 0) await session.load(sharingTrusted);
    const compared = [...new Set([...keysOf].flatMap(([referenceId, keys]) => candidatesOf(referenceId, keys)))];
    await session.loadCompared(compared);
    // A duplicate found by a key speaks for its group, so its canonical is read too.
    await session.loadCompared(compared.map((id) => groupCanonicalId(session.state(id))).filter((id): id is string => id !== null));
    // A reference decided in this pass is found by the later ones as if stored: under its filed keys.
    const addToIndex = (referenceId: string, keys: { trusted: string[]; blocking: string[]; year: number | null }) => {
      for (const key of [...keys.trusted, ...keys.blocking]) {
        const listed = index.get(key);
        if (listed) listed.unshift(referenceId);
        else index.set(key, [referenceId]);
      }
      if (keys.year === null) filedYears.delete(referenceId);
      else filedYears.set(referenceId, [keys.year]);
    };

    for (const decision of decisions) {
      const reference = session.get(decision.reference_id);
      const keys = keysOf.get(decision.reference_id);
      if (!reference || !keys) continue;
      const proposed = refusingJoins(refusedGroups, shortcut(session, reference, keys.trusted, index) ?? withoutTrustedMatch(keys.trusted.length > 0, engineDecision(session, reference, candidatesOf(reference._id, keys))));
      let applied;
      try {
        applied = session.apply(reference._id, { ...proposed.decision, trigger: decision.decision_trigger }, { pendingDecisionId: decision._id, manual: false });
      } catch (error) {
        // A refused proposal (e.g. its canonical stopped being canonical) goes to review instead of
        // failing the whole job again and again.
        const detail = `${proposed.decision.detail ?? ''} Refused: ${error instanceof Error ? error.message : String(error)}`.trim();
        applied = session.apply(reference._id, { ...proposed.decision, determination: 'decoupled', canonicalId: null, detail, trigger: decision.decision_trigger }, { pendingDecisionId: decision._id, manual: false });
      }
      const groupHead = !applied.decision.active_decision
        ? null
        : applied.decision.duplicate_determination === 'canonical'
          ? reference._id
          : applied.decision.duplicate_determination === 'duplicate'
            ? applied.decision.canonical_reference_id
            : null;
      for (const ungrouped of groupHead ? proposed.ungrouped : []) {
        const current = session.get(ungrouped)?.active_decision;
        if (current && current.duplicate_determination !== 'unsearchable') continue;
        try {
          session.apply(ungrouped, { determination: 'duplicate', canonicalId: groupHead, authority: 'system', trigger: decision.decision_trigger, detail: `Shortcutted via proxy reference ${reference._id}.`, candidateIds: [groupHead as string] }, { manual: false });
        } catch {
          // The rules refused (e.g. a person's decision stands); that reference keeps its own decision.
        }
      }
      addToIndex(reference._id, keys);
    }
    // Blocking keys first: a pass that stops between the two writes (the database went away) is
    // delivered again and skips what it already decided, so keys written after the decisions could
    // be lost for good and later copies would not find these references. Keys written first are
    // harmless alone: they lead only to references whose active decision is canonical.
    await deps.blocking.addMany([...keysOf].map(([referenceId, keys]) => ({ referenceId, keys: [...keys.trusted, ...keys.blocking], years: keys.year === null ? null : [keys.year] })), new Date());
    const queuedEvents = await session.commit();
    if (queuedEvents) deps.onEvents();
    deps.logger.debug({ references: decisions.length, dedup_ms: performance.now() - started }, 'deduplication job processed');
  }

  function shortcut(session: DecisionSession, reference: ReferenceDocument, keys: string[], index: Map<string, string[]>): { decision: Omit<ProposedDecision, 'trigger'>; ungrouped: string[] } | null {
    if (keys.length === 0) return null;
    const matches = [...new Set(keys.flatMap((key) => index.get(key) ?? []))].filter((id) => id !== reference._id).map((id) => session.get(id)).filter((item): item is ReferenceDocument => item !== undefined);
    // No other reference shares a trusted identifier: the engine still compares the metadata, so
    // a record seen before under another identifier (or none) is not made canonical blindly.
    if (matches.length === 0) return null;
    const canonicals = new Set<string>();
    const ungrouped: string[] = [];
    for (const match of matches) {
      const active = match.active_decision;
      if (!active || active.duplicate_determination === 'unsearchable') ungrouped.push(match._id);
      else if (active.duplicate_determination === 'canonical') canonicals.add(match._id);
      // The reference's own duplicates (it is re-decided as their canonical) name no other group.
      else if (active.duplicate_determination === 'duplicate' && active.canonical_reference_id && active.canonical_reference_id !== reference._id) canonicals.add(active.canonical_reference_id);
    }
    const list = [...canonicals];
    if (list.length > 1) {
      return { decision: { determination: 'decoupled', canonicalId: null, authority: 'system', detail: `Trusted identifiers match more than one canonical reference: ${list.join(', ')}`, candidateIds: list }, ungrouped: [] };
    }
    if (list.length === 0) {
      const detail = ungrouped.length > 0 ? 'Trusted identifier(s) shared only with ungrouped references' : 'Trusted identifier(s) shared only with its own duplicates';
      return { decision: { determination: 'canonical', canonicalId: null, authority: 'system', detail, candidateIds: [] }, ungrouped };
    }
    return { decision: { determination: 'duplicate', canonicalId: list[0], authority: 'system', detail: 'Trusted identifier match', candidateIds: list }, ungrouped };
  }

  /** A proposal to join a refused group goes to review (decoupled) with the reason, and takes no one with it. */
  function refusingJoins(refusedGroups: ReadonlySet<string>, proposed: { decision: Omit<ProposedDecision, 'trigger'>; ungrouped: string[] }) {
    const { determination, canonicalId } = proposed.decision;
    if (determination !== 'duplicate' || canonicalId === null || !refusedGroups.has(canonicalId)) return proposed;
    const detail = `${GROUP_TOO_LARGE_DETAIL} ${proposed.decision.detail ?? ''}`.trim();
    return { decision: { ...proposed.decision, determination: 'decoupled' as const, canonicalId: null, detail }, ungrouped: [] };
  }

  /**
   * §15.3 step 1: a reference whose trusted identifiers no other reference shares is canonical.
   * The engine has still compared its metadata first, so a copy stored under another identifier
   * (or none) is found as its duplicate rather than left beside it.
   */
  function withoutTrustedMatch(hasTrusted: boolean, proposed: { decision: Omit<ProposedDecision, 'trigger'>; ungrouped: string[] }) {
    const { determination } = proposed.decision;
    if (!hasTrusted || (determination !== 'canonical' && determination !== 'unsearchable')) return proposed;
    return { decision: { ...proposed.decision, determination: 'canonical' as const, detail: TRUSTED_IDENTIFIERS_UNMATCHED_DETAIL }, ungrouped: [] };
  }

  function engineDecision(session: DecisionSession, reference: ReferenceDocument, candidateIds: string[]): { decision: Omit<ProposedDecision, 'trigger'>; ungrouped: string[] } {
    if (deps.candidateSearch === false) {
      return { decision: { determination: 'unsearchable', canonicalId: null, authority: 'system', detail: CANDIDATE_SEARCH_DISABLED_DETAIL, candidateIds: [] }, ungrouped: [] };
    }
    const candidates: GroupCandidate[] = [];
    for (const id of candidateIds) {
      const member = session.state(id);
      const canonicalId = groupCanonicalId(member);
      const canonical = canonicalId === null ? undefined : session.state(canonicalId);
      const memberRecord = session.recordOf(id);
      const canonicalRecord = canonicalId === null ? undefined : session.recordOf(canonicalId);
      // Only members of a live group: a canonical, or a duplicate whose canonical still is one.
      if (id === reference._id || !memberRecord || !canonicalRecord || canonical?.active_decision?.duplicate_determination !== 'canonical') continue;
      candidates.push({ record: memberRecord, canonical: canonicalRecord });
    }
    const decided = deps.engine.decideDuplicate(session.recordOf(reference._id) as DedupRecord, candidates);
    return {
      decision: { determination: decided.determination, canonicalId: decided.determination === 'duplicate' ? decided.canonicalId : null, authority: 'system', detail: decided.detail, candidateIds: decided.candidateIds },
      ungrouped: [],
    };
  }
}
