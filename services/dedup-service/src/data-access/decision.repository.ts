import type { AnyBulkWriteOperation, Db } from 'mongodb';
import { COLLECTIONS } from './collections';
import { insertIgnoringDuplicates } from './reference.repository';

/** `ReferenceDuplicateDecision` of §15.1. */
export interface DecisionDocument {
  _id: string;
  reference_id: string;
  decision_authority: 'unclassified' | 'person' | 'system';
  decision_trigger: 'unclassified' | 'manual_api' | 'import' | 'enhancement' | 'invoke_api';
  enhancement_id: string | null;
  active_decision: boolean;
  candidate_canonical_ids: string[];
  duplicate_determination: string;
  canonical_reference_id: string | null;
  detail: string | null;
  created_at: Date;
  updated_at: Date;
}

export function pendingDecision(id: string, referenceId: string, trigger: DecisionDocument['decision_trigger'], now: Date): DecisionDocument {
  return {
    _id: id,
    reference_id: referenceId,
    decision_authority: 'system',
    decision_trigger: trigger,
    enhancement_id: null,
    active_decision: false,
    candidate_canonical_ids: [],
    duplicate_determination: 'pending',
    canonical_reference_id: null,
    detail: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The writes that leave each reference's carried decision (`carried`: reference id → decision id)
 * its only active one, with the decisions in `activate` marked active. Every other decision of such a
 * reference still marked active is deactivated, not only the one read as replaced: a pass that wrote
 * a reference but stopped before its decision writes leaves its predecessor marked active.
 */
export function activeDecisionWrites(carried: ReadonlyMap<string, string>, activate: readonly string[], now: Date): AnyBulkWriteOperation<DecisionDocument>[] {
  return [
    ...(carried.size > 0
      ? [{ updateMany: { filter: { reference_id: { $in: [...carried.keys()] }, active_decision: true, _id: { $nin: [...carried.values()] } }, update: { $set: { active_decision: false, updated_at: now } } } }]
      : []),
    ...(activate.length > 0 ? [{ updateMany: { filter: { _id: { $in: [...activate] } }, update: { $set: { active_decision: true, updated_at: now } } } }] : []),
  ];
}

/** A new decision to be activated once its reference carries it (see `DecisionSession.commit`). */
export interface DecisionActivation {
  _id: string;
  reference_id: string;
  created_at: Date;
}

export function createDecisionRepository(db: Db) {
  const decisions = db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions);
  const activations = db.collection<DecisionActivation>(COLLECTIONS.decisionActivations);
  return {
    decisions,
    activations,
    /** Records new decisions about to be activated, before they are stored. */
    async beginActivations(entries: DecisionActivation[]): Promise<void> {
      await insertIgnoringDuplicates(activations, entries);
    },
    /** The activations are done (or settled): nothing is left to reconcile for them. */
    async endActivations(ids: readonly string[]): Promise<void> {
      if (ids.length > 0) await activations.deleteMany({ _id: { $in: [...ids] } });
    },
    async insert(documents: DecisionDocument[]): Promise<void> {
      await insertIgnoringDuplicates(decisions, documents);
    },
    async getMany(ids: readonly string[]): Promise<DecisionDocument[]> {
      if (ids.length === 0) return [];
      return decisions.find({ _id: { $in: [...ids] } }).toArray();
    },
    /** Resolves a pending decision; false when it was no longer pending (processed already). */
    async resolve(id: string, fields: Partial<DecisionDocument>): Promise<boolean> {
      const result = await decisions.updateOne({ _id: id, duplicate_determination: 'pending' }, { $set: { ...fields, updated_at: new Date() } });
      return result.modifiedCount === 1;
    },
    async deactivate(id: string): Promise<void> {
      await decisions.updateOne({ _id: id }, { $set: { active_decision: false, updated_at: new Date() } });
    },
    async forReference(referenceId: string): Promise<DecisionDocument[]> {
      return decisions.find({ reference_id: referenceId }).sort({ _id: 1 }).toArray();
    },
  };
}

export type DecisionRepository = ReturnType<typeof createDecisionRepository>;
