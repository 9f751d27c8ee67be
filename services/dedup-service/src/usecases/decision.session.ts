import { uuidv7 } from '@destiny/contracts';
import { OUTBOX_PENDING_FIELD, pushToOutbox, ServiceError, type OutboxEntry } from '@destiny/platform';
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { activeDecisionWrites, type DecisionDocument, type DecisionRepository } from '../data-access/decision.repository';
import { ConcurrentChangeError, WRITE_ROUNDS, type ReferenceRepository } from '../data-access/reference.repository';
import { MAX_REFERENCE_BYTES, storedSize } from '../data-access/reference-size';
import { dedupRecordOf, keptDedupRecord } from '../domain/dedup-record';
import type { ActiveRuleDecision, DedupRecord, DeduplicationEnginePort, RuleOutcome } from '../domain/deduplication-engine.port';
import { compactOwnChangeEntry, referenceChangedEntry } from '../domain/reference-changed.event-builder';
import { isCanonicalLike, referenceDoc, type ActiveDecision, type ReferenceDocument, type TerminalDetermination } from '../domain/reference.model';

// Applies duplicate decisions (§15.4) to a working set of references and writes the result in
// one pass: new decisions (inactive), references with their `reference.changed` events (outbox),
// then the decisions' activity, in that order per reference so a crash leaves a pending decision
// that is simply processed again, and never two active decisions for one reference.

/**
 * A group's event carries its canonical's view with every duplicate's content, stored with the
 * canonical until relayed: a group that would outgrow a stored document cannot be written.
 */
export class GroupTooLargeError extends Error {
  constructor(readonly canonicalId: string) {
    super(`The duplicate group of reference ${canonicalId} would be larger than the ${MAX_REFERENCE_BYTES} bytes a stored reference may hold.`);
    this.name = 'GroupTooLargeError';
  }
}

/** Some reference writes of a commit did not match: another lane changed one since it was read. */
export class DecisionCommitConflict extends Error {
  constructor() {
    super('a reference changed while its duplicate decision was applied; the job will be retried');
    this.name = 'DecisionCommitConflict';
  }
}

export interface ProposedDecision {
  determination: 'duplicate' | 'canonical' | 'unsearchable' | 'decoupled';
  canonicalId: string | null;
  authority: DecisionDocument['decision_authority'];
  trigger: DecisionDocument['decision_trigger'];
  detail: string | null;
  candidateIds: string[];
}

export interface AppliedDecision {
  decision: DecisionDocument;
  changed: boolean;
}

interface WorkingReference {
  before: ReferenceDocument;
  after: ReferenceDocument;
  decisionChanged: boolean;
}

/** A reference the session only compares against: its group state, version and comparison record. */
interface ComparedReference {
  _id: string;
  active_decision: ActiveDecision | null;
  version: number;
  record: DedupRecord;
}

export class DecisionSession {
  private readonly working = new Map<string, WorkingReference>();
  private readonly compared = new Map<string, ComparedReference>();
  private readonly records = new Map<string, DedupRecord>();
  /** Active duplicates per canonical as the session sees them (loaded state plus changes). */
  private readonly members = new Map<string, Set<string>>();
  private readonly memberDocs = new Map<string, ReferenceDocument>();
  private readonly newDecisions: DecisionDocument[] = [];
  private readonly resolved = new Map<string, DecisionDocument>();
  /** References whose pending decision an earlier attempt applied (`finishApplied`). */
  private readonly finished = new Set<string>();
  /** Canonicals whose group changed, with the references that joined or left it. */
  private readonly groupChanges = new Map<string, Set<string>>();

  constructor(
    private readonly deps: { references: ReferenceRepository; decisions: DecisionRepository; engine: DeduplicationEnginePort },
    private readonly now = new Date(),
  ) {}

  /** Loads references (and the duplicates of any of them) into the session; runs under the writer lease. */
  async load(ids: readonly string[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.working.has(id));
    if (missing.length === 0) return;
    const rows = await this.deps.references.getManyHeld(missing);
    for (const row of rows) {
      // A decision may already rest on the state compared earlier in this session.
      if (this.compared.has(row._id) && this.compared.get(row._id)?.version !== row.version) throw new ConcurrentChangeError(row._id);
      // Only `active_decision` is ever replaced on `after`, so a shallow copy keeps `before` intact.
      this.working.set(row._id, { before: row, after: { ...row }, decisionChanged: false });
    }
    // Undecided references are looked up too: a commit that stopped half-way (a process or the
    // database dying mid-write, another lane changing one of its references) can leave a copy
    // stored as the duplicate of a canonical whose own decision was not written.
    const groups = await this.deps.references.duplicatesOf(rows.map((row) => row._id));
    for (const row of rows) {
      const duplicates = groups.get(row._id) ?? [];
      const members = new Set(duplicates.map((item) => item._id));
      // A group read after decisions moved references in or out of it (a canonical only compared
      // against until the commit): the session's decisions win over the stored ones.
      for (const mover of this.groupChanges.get(row._id) ?? []) {
        const decision = this.working.get(mover)?.after.active_decision;
        if (decision?.duplicate_determination === 'duplicate' && decision.canonical_reference_id === row._id) members.add(mover);
        else members.delete(mover);
      }
      this.members.set(row._id, members);
      for (const duplicate of duplicates) this.memberDocs.set(duplicate._id, duplicate);
    }
  }

  /**
   * Reads references a decision only compares against (blocking candidates and their canonicals):
   * their kept comparison records and group state, not their whole documents. A reference without
   * a current kept record is loaded whole.
   */
  async loadCompared(ids: readonly string[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.working.has(id) && !this.compared.has(id));
    if (missing.length === 0) return;
    const whole: string[] = [];
    for (const row of await this.deps.references.summariesHeld(missing)) {
      const record = keptDedupRecord(this.deps.engine, row);
      if (record) this.compared.set(row._id, { _id: row._id, active_decision: row.active_decision, version: row.version, record });
      else whole.push(row._id);
    }
    await this.load(whole);
  }

  get(id: string): ReferenceDocument | undefined {
    return this.working.get(id)?.after;
  }

  /** The group state of a reference the session read, whole or compared. */
  state(id: string): Pick<ReferenceDocument, '_id' | 'active_decision'> | undefined {
    return this.working.get(id)?.after ?? this.compared.get(id);
  }

  /** The comparison record of a reference the session read (content never changes in a session). */
  recordOf(id: string): DedupRecord | undefined {
    const working = this.working.get(id);
    if (!working) return this.compared.get(id)?.record;
    let record = this.records.get(id);
    if (!record) {
      record = dedupRecordOf(this.deps.engine, working.after);
      this.records.set(id, record);
    }
    return record;
  }

  hasDuplicates(id: string): boolean {
    return (this.members.get(id)?.size ?? 0) > 0;
  }

  /**
   * Applies N to reference X with §15.4's rules. `pendingDecisionId` resolves that pending
   * decision instead of creating a new one. Throws a 422 ServiceError when the rules refuse.
   */
  apply(referenceId: string, proposed: ProposedDecision, options: { pendingDecisionId?: string; manual: boolean }): AppliedDecision {
    const working = this.working.get(referenceId);
    if (!working) throw ServiceError.unprocessable(`Reference with id ${referenceId} does not exist.`);
    const current = working.after.active_decision;
    let outcome: RuleOutcome;
    if (proposed.determination === 'decoupled') outcome = { outcome: 'decoupled', changed: false };
    else {
      const target = proposed.canonicalId ? this.state(proposed.canonicalId) : undefined;
      if (proposed.canonicalId && !target) throw ServiceError.unprocessable(`Reference with id ${proposed.canonicalId} does not exist.`);
      const toRule = (decision: ActiveDecision | null): ActiveRuleDecision | null =>
        decision ? { determination: decision.duplicate_determination, canonicalId: decision.canonical_reference_id, authority: decision.decision_authority } : null;
      outcome = this.deps.engine.applyDecisionRules({
        referenceId,
        current: toRule(current),
        proposed: { determination: proposed.determination, canonicalId: proposed.canonicalId, authority: proposed.authority === 'person' ? 'person' : 'system' },
        referenceHasDuplicates: this.hasDuplicates(referenceId),
        canonicalTargetDetermination: target ? (target.active_decision?.duplicate_determination ?? null) : null,
        manual: options.manual,
      });
    }
    if (outcome.outcome === 'error') throw ServiceError.unprocessable(outcome.error ?? 'Decision refused.');
    const active = outcome.outcome === 'activate';
    const decision: DecisionDocument = {
      _id: options.pendingDecisionId ?? uuidv7(),
      reference_id: referenceId,
      decision_authority: proposed.authority,
      decision_trigger: proposed.trigger,
      enhancement_id: null,
      active_decision: active,
      candidate_canonical_ids: proposed.candidateIds,
      duplicate_determination: active ? proposed.determination : 'decoupled',
      canonical_reference_id: proposed.canonicalId,
      // The reason first, then the proposal's own detail, as the reference implementation words it.
      detail: active || !outcome.reason ? proposed.detail : [outcome.reason, proposed.detail].filter(Boolean).join(' '),
      created_at: this.now,
      updated_at: this.now,
    };
    if (options.pendingDecisionId) this.resolved.set(decision._id, decision);
    else this.newDecisions.push(decision);
    if (!active) return { decision, changed: false };
    if (current && current.decision_id !== decision._id) {
      // The stored decision it replaces is deactivated at the commit (`activeDecisionWrites`). One this
      // session made earlier is written as held here (a resolved pending one's write would
      // otherwise set it active again): it is inactive now.
      const earlier = this.resolved.get(current.decision_id) ?? this.newDecisions.find((made) => made._id === current.decision_id);
      if (earlier) earlier.active_decision = false;
    }
    working.after.active_decision = {
      decision_id: decision._id,
      duplicate_determination: proposed.determination as TerminalDetermination,
      canonical_reference_id: proposed.canonicalId,
      decision_authority: proposed.authority,
    };
    if (outcome.changed) {
      working.decisionChanged = true;
      const oldCanonical = current?.duplicate_determination === 'duplicate' ? current.canonical_reference_id : null;
      const newCanonical = proposed.determination === 'duplicate' ? proposed.canonicalId : null;
      if (oldCanonical !== newCanonical) {
        if (oldCanonical) {
          this.members.get(oldCanonical)?.delete(referenceId);
          this.touchGroup(oldCanonical, referenceId);
        }
        if (newCanonical) {
          if (!this.members.has(newCanonical)) this.members.set(newCanonical, new Set());
          this.members.get(newCanonical)?.add(referenceId);
          this.touchGroup(newCanonical, referenceId);
        }
      }
    }
    return { decision, changed: outcome.changed };
  }

  /**
   * A pending decision an earlier attempt already applied to its reference, stopping before the
   * decision itself was written (a crash, or another reference of its pass changed meanwhile):
   * recorded as the reference carries it, not decided again (the rules would now see it as the
   * reference's current decision and refuse it). The reference's other decisions are deactivated,
   * and the groups it joined or left (`replaced` tells the ones it left) get their events again,
   * which that attempt may not have written.
   */
  finishApplied(pending: DecisionDocument, replaced: readonly DecisionDocument[]): void {
    const active = this.working.get(pending.reference_id)?.after.active_decision;
    if (!active || active.decision_id !== pending._id) throw new Error(`reference ${pending.reference_id} does not carry decision ${pending._id}`);
    this.resolved.set(pending._id, {
      ...pending,
      decision_authority: active.decision_authority,
      active_decision: true,
      candidate_canonical_ids: active.canonical_reference_id ? [active.canonical_reference_id] : [],
      duplicate_determination: active.duplicate_determination,
      canonical_reference_id: active.canonical_reference_id,
      detail: 'Applied to the reference by an attempt that stopped before recording this decision.',
      updated_at: this.now,
    });
    const canonicals = [active, ...replaced].flatMap((decision) => (decision.duplicate_determination === 'duplicate' && decision.canonical_reference_id ? [decision.canonical_reference_id] : []));
    for (const canonicalId of new Set(canonicals)) this.touchGroup(canonicalId, pending.reference_id);
    this.finished.add(pending.reference_id);
  }

  private touchGroup(canonicalId: string, referenceId: string) {
    if (!this.groupChanges.has(canonicalId)) this.groupChanges.set(canonicalId, new Set());
    this.groupChanges.get(canonicalId)?.add(referenceId);
  }

  /** In id order, as every read of the view lists them: members are kept in the order they joined. */
  private duplicatesFor(canonicalId: string): ReferenceDocument[] {
    return [...(this.members.get(canonicalId) ?? [])]
      .sort()
      .map((id) => this.working.get(id)?.after ?? this.memberDocs.get(id))
      .filter((item): item is ReferenceDocument => item !== undefined);
  }

  /** Writes everything the session decided; returns whether any event was queued. */
  async commit(): Promise<boolean> {
    const groupIds = [...this.groupChanges.keys()].filter((id) => !this.working.has(id));
    await this.load(groupIds);
    const operations: Array<{ filter: Document; update: Document; after: ReferenceDocument }> = [];
    const compacted: ReferenceDocument[] = [];
    let events = 0;
    for (const [id, working] of this.working) {
      const entries: OutboxEntry[] = [];
      /** Entries with the group's view, which may be far larger than the reference itself. */
      let withViews = false;
      const decisionChanged = working.decisionChanged;
      const groupChanged = this.groupChanges.has(id);
      const activeChanged = working.after.active_decision?.decision_id !== working.before.active_decision?.decision_id;
      if (!decisionChanged && !groupChanged && !activeChanged) continue;
      let version = working.before.version;
      const determination = working.after.active_decision?.duplicate_determination ?? null;
      if (decisionChanged) {
        version += 1;
        const reference = { ...working.after, version };
        const duplicates = determination === 'duplicate' ? [] : this.duplicatesFor(id);
        const duplicateDecisionId = working.after.active_decision?.decision_id;
        if (duplicates.length === 0) {
          entries.push(compactOwnChangeEntry({ kind: 'duplicate_decision_changed', reference, duplicateDecisionId, now: this.now }));
          compacted.push(reference);
        } else {
          entries.push(referenceChangedEntry({ kind: 'duplicate_decision_changed', reference, duplicates, changeset: referenceDoc([{ reference }], reference.visibility, determination), duplicateDecisionId, now: this.now }));
          withViews = true;
        }
      }
      if (groupChanged && determination !== 'duplicate') {
        const movers = [...(this.groupChanges.get(id) ?? [])].map((mover) => this.working.get(mover)?.after).filter((item): item is ReferenceDocument => item !== undefined);
        const joined = movers.filter((mover) => mover.active_decision?.duplicate_determination === 'duplicate' && mover.active_decision.canonical_reference_id === id);
        const duplicates = this.duplicatesFor(id);
        withViews = true;
        // §13.2: each duplicate that joined is its own trigger (its decision, its stored self as the
        // changeset); a group that only lost members is re-indexed without percolating, since the
        // canonical's own decision did not change (a changeset without a determination says so).
        for (const mover of joined) {
          version += 1;
          const changeset = referenceDoc([{ reference: mover }], mover.visibility, 'duplicate');
          entries.push(referenceChangedEntry({ kind: 'duplicate_decision_changed', reference: { ...working.after, version }, duplicates, changeset, duplicateDecisionId: mover.active_decision?.decision_id, now: this.now }));
        }
        if (joined.length === 0) {
          version += 1;
          const reference = { ...working.after, version };
          entries.push(referenceChangedEntry({ kind: 'duplicate_decision_changed', reference, duplicates, changeset: referenceDoc([], reference.visibility, null), now: this.now }));
        }
      }
      // Checked before anything is written, so a refused session leaves no trace.
      if (withViews && storedSize(working.after) + storedSize({ entries }) > MAX_REFERENCE_BYTES) throw new GroupTooLargeError(id);
      events += entries.length;
      // Every write moves the version, even one without an event (another decision id, same
      // outcome), so a writer of the other lane that read the document before fails its condition.
      if (version === working.before.version) version += 1;
      const update: Record<string, unknown> = { $set: { active_decision: working.after.active_decision, version, ...(entries.length > 0 ? { [OUTBOX_PENDING_FIELD]: true } : {}) } };
      if (entries.length > 0) update.$push = pushToOutbox(entries).$push;
      operations.push({ filter: { _id: id, version: working.before.version }, update, after: { ...working.after, version } });
    }
    // New decisions are stored inactive and activated once their references carry them, so a
    // process stopping in between never leaves two active; the activations are journalled first,
    // so what such a stop left is reconciled later (reconcile-decision-activations).
    const toActivate = this.newDecisions.filter((decision) => decision.active_decision);
    await this.deps.decisions.beginActivations(toActivate.map((decision) => ({ _id: decision._id, reference_id: decision.reference_id, created_at: this.now })));
    await this.deps.decisions.insert(this.newDecisions.map((decision) => (decision.active_decision ? { ...decision, active_decision: false } : decision)));
    if (operations.length > 0) {
      const matched = await this.deps.references.updateMany(operations);
      if (matched !== operations.length) {
        await this.settleUnapplied(operations.map((operation) => operation.after));
        await this.refreshGroups([...this.groupChanges.keys()]);
        await this.deps.decisions.endActivations(toActivate.map((decision) => decision._id));
        throw new DecisionCommitConflict();
      }
      this.deps.references.rememberUnrelayedContent(compacted);
    }
    // A reference that had a decision and now carries another, or whose applied decision is
    // finished here: every other decision of it still marked active is deactivated.
    const settled = new Map<string, string>();
    for (const [id, working] of this.working) {
      const carried = working.after.active_decision?.decision_id;
      const moved = working.before.active_decision && working.before.active_decision.decision_id !== carried;
      if (carried && (moved || this.finished.has(id))) settled.set(id, carried);
    }
    const decisionOps: AnyBulkWriteOperation<DecisionDocument>[] = [
      ...activeDecisionWrites(
        settled,
        toActivate.map((decision) => decision._id),
        this.now,
      ),
      ...[...this.resolved.values()].map((decision) => ({
        updateOne: {
          filter: { _id: decision._id, duplicate_determination: 'pending' },
          update: {
            $set: {
              decision_authority: decision.decision_authority,
              active_decision: decision.active_decision,
              candidate_canonical_ids: decision.candidate_canonical_ids,
              duplicate_determination: decision.duplicate_determination,
              canonical_reference_id: decision.canonical_reference_id,
              detail: decision.detail,
              updated_at: this.now,
            },
          },
        },
      })),
    ];
    if (decisionOps.length > 0) await this.deps.decisions.decisions.bulkWrite(decisionOps, { ordered: false });
    await this.deps.decisions.endActivations(toActivate.map((decision) => decision._id));
    return events > 0;
  }

  /**
   * After a commit some of whose writes did not match: each group it changed gets a new version
   * whose event carries the group as stored. A canonical's event written in the commit may name a
   * copy whose own write failed (and that a person may decide otherwise before the retry), and one
   * that failed leaves out a copy whose write landed; the retry alone mends neither.
   */
  private async refreshGroups(canonicalIds: readonly string[]): Promise<void> {
    let remaining = canonicalIds;
    for (let round = 0; remaining.length > 0 && round < WRITE_ROUNDS; round += 1) {
      const canonicals = (await this.deps.references.getMany(remaining)).filter(isCanonicalLike);
      const groups = await this.deps.references.duplicatesOf(canonicals.map((canonical) => canonical._id));
      const changed: string[] = [];
      for (const canonical of canonicals) {
        const reference = { ...canonical, version: canonical.version + 1 };
        const entry = referenceChangedEntry({ kind: 'duplicate_decision_changed', reference, duplicates: groups.get(canonical._id) ?? [], changeset: referenceDoc([], reference.visibility, null), now: this.now });
        // A stored group outgrowing its event is refused at its next decision (GroupTooLargeError).
        if (storedSize(canonical) + storedSize({ entries: [entry] }) > MAX_REFERENCE_BYTES) continue;
        try {
          await this.deps.references.update(canonical._id, canonical.version, { version: reference.version }, [entry]);
        } catch (error) {
          if (!(error instanceof ConcurrentChangeError)) throw error;
          changed.push(canonical._id);
        }
      }
      remaining = changed;
    }
  }

  /**
   * Some reference writes of this commit did not match (another lane changed a reference since it
   * was read), and the pass will be retried. Which ones were written is read back: a decision this
   * session inserted (inactive) for a reference that carries it took effect and is activated, the
   * reference's others deactivated; one for a reference that does not carry it stays inactive.
   * Pending decisions stay pending: the retry finishes those whose reference carries them (`finishApplied`).
   */
  private async settleUnapplied(written: readonly ReferenceDocument[]): Promise<void> {
    const stored = new Map((await this.deps.references.summaries(written.map((reference) => reference._id))).map((row) => [row._id, row.active_decision?.decision_id ?? null]));
    const taken = this.newDecisions.filter((decision) => decision.active_decision && stored.get(decision.reference_id) === decision._id).map((decision) => decision._id);
    const tookEffect = new Map<string, string>();
    for (const [id, carried] of stored) {
      const working = this.working.get(id);
      if (carried && working?.after.active_decision?.decision_id === carried && working.before.active_decision?.decision_id !== carried) tookEffect.set(id, carried);
    }
    const operations = activeDecisionWrites(tookEffect, taken, this.now);
    if (operations.length > 0) await this.deps.decisions.decisions.bulkWrite(operations, { ordered: false });
  }
}
