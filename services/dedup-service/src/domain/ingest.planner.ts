import {
  enhancementFileInputRobotVersion,
  enhancementFingerprint,
  identifierIdentityKey,
  identifierMergeKey,
  type EnhancementFileInput,
  type ExternalIdentifier,
} from '@destiny/contracts';
import { currentEnhancements, type ReferenceDocument, type StoredEnhancement } from './reference.model';

// Collision strategies of §8.6 on an append-only store, as a pure plan over what is already stored.

export type IngestStrategy = 'discard' | 'fail' | 'merge_defensive' | 'merge_aggressive' | 'append';

export interface IncomingReference {
  visibility: string;
  identifiers: ExternalIdentifier[];
  enhancements: EnhancementFileInput[];
}

export type IngestPlan =
  | { kind: 'create'; reference: ReferenceDocument }
  | { kind: 'merge'; referenceId: string; identifiers: ExternalIdentifier[]; enhancements: StoredEnhancement[]; supersede: Array<{ id: string; by: string }> }
  | { kind: 'discard' }
  | { kind: 'fail'; detail: string };

export const MORE_THAN_ONE_COLLISION = 'Incoming reference collides with more than one existing reference.';

export function toStoredEnhancement(input: EnhancementFileInput, referenceId: string, id: string, createdAt: string): StoredEnhancement {
  const robotVersion = enhancementFileInputRobotVersion(input);
  const content = input.content as unknown as Record<string, unknown>;
  return {
    id,
    reference_id: referenceId,
    source: input.source,
    visibility: input.visibility,
    robot_version: robotVersion,
    derived_from: null,
    content,
    created_at: createdAt,
    superseded_by: null,
    fingerprint: enhancementFingerprint({ source: input.source, visibility: input.visibility, robot_version: robotVersion, derived_from: null, content }),
  };
}

function pairKey(enhancement: { source: string; content: Record<string, unknown> }): string {
  return JSON.stringify([enhancement.content.enhancement_type, enhancement.source]);
}

function describeIdentifier(identifier: ExternalIdentifier): string {
  const name = identifier.identifier_type === 'other' ? `, other_identifier_name=${identifier.other_identifier_name}` : '';
  return `identifier_type=${identifier.identifier_type}, identifier=${String(identifier.identifier)}${name}`;
}

export interface PlanInput {
  lineNumber: number;
  importResultId: string;
  incoming: IncomingReference;
  strategy: IngestStrategy;
  /** Owner of each identity key already stored. */
  ownerOf(identityKey: string): string | undefined;
  referenceById(id: string): ReferenceDocument | undefined;
  newId(): string;
  now: string;
}

export function planIngest(input: PlanInput): IngestPlan {
  const { incoming } = input;
  const colliding = new Map<string, ExternalIdentifier[]>();
  // Once per identity: a line may repeat an identifier, or spell one DOI in two ways that normalise alike.
  for (const identifier of dedupeIdentifiers(incoming.identifiers)) {
    const owner = input.ownerOf(identifierIdentityKey(identifier));
    if (owner === undefined) continue;
    colliding.set(owner, [...(colliding.get(owner) ?? []), identifier]);
  }
  if (colliding.size === 0) {
    const id = input.newId();
    return {
      kind: 'create',
      reference: {
        _id: id,
        visibility: incoming.visibility,
        identifiers: dedupeIdentifiers(incoming.identifiers),
        enhancements: dedupeEnhancements(incoming.enhancements.map((enhancement) => toStoredEnhancement(enhancement, id, input.newId(), input.now))),
        active_decision: null,
        // The version its `imported` event carries; events start at 1 (0 means "unversioned" downstream).
        version: 1,
        import_result_id: input.importResultId,
        merged_import_results: [],
        import_decision_id: input.newId(),
        created_at: new Date(input.now),
      },
    };
  }
  const existingIds = [...colliding.keys()];
  if (input.strategy === 'discard') return { kind: 'discard' };
  if (existingIds.length > 1) return { kind: 'fail', detail: `Entry ${input.lineNumber}:\n\n${MORE_THAN_ONE_COLLISION}` };
  if (input.strategy === 'fail') {
    const identifiers = colliding.get(existingIds[0]) ?? [];
    return { kind: 'fail', detail: `Entry ${input.lineNumber}:\n\nIdentifier(s) are already mapped on an existing reference:\n${identifiers.map(describeIdentifier).join('\n')}` };
  }
  // Every strategy pre-empts the head's exact-duplicate path (§8.5), whose minted id resolves to no
  // reference: under a merge strategy a line adding nothing is an empty merge, answered with the
  // existing reference's id as §8.6 says.
  const existing = input.referenceById(existingIds[0]);
  if (!existing) return { kind: 'fail', detail: `Entry ${input.lineNumber}:\n\nUncaught exception at the repository.` };
  return planMerge(input, existing);
}

function dedupeIdentifiers(identifiers: ExternalIdentifier[]): ExternalIdentifier[] {
  const seen = new Set<string>();
  return identifiers.filter((identifier) => {
    const key = identifierIdentityKey(identifier);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function dedupeEnhancements(enhancements: StoredEnhancement[]): StoredEnhancement[] {
  const seen = new Set<string>();
  return enhancements.filter((enhancement) => {
    if (seen.has(enhancement.fingerprint)) return false;
    seen.add(enhancement.fingerprint);
    return true;
  });
}

function planMerge(input: PlanInput, existing: ReferenceDocument): IngestPlan {
  const { incoming, strategy } = input;
  const existingIdentities = new Set(existing.identifiers.map(identifierIdentityKey));
  const existingMergeKeys = new Set(existing.identifiers.map(identifierMergeKey));
  const identifiers = dedupeIdentifiers(incoming.identifiers).filter((identifier) => {
    if (existingIdentities.has(identifierIdentityKey(identifier))) return false;
    // Defensive: existing data wins, so a key already present keeps its value alone.
    return strategy !== 'merge_defensive' || !existingMergeKeys.has(identifierMergeKey(identifier));
  });
  const current = currentEnhancements(existing);
  const fingerprints = new Set(current.map((enhancement) => enhancement.fingerprint));
  // Every current enhancement of a pair: `append` may have left several, and an aggressive merge
  // supersedes them all, as it supersedes one the same line added before.
  const byPair = new Map<string, StoredEnhancement[]>();
  for (const enhancement of current) byPair.set(pairKey(enhancement), [...(byPair.get(pairKey(enhancement)) ?? []), enhancement]);
  const enhancements: StoredEnhancement[] = [];
  const supersede: Array<{ id: string; by: string }> = [];
  for (const raw of incoming.enhancements) {
    const enhancement = toStoredEnhancement(raw, existing._id, input.newId(), input.now);
    if (fingerprints.has(enhancement.fingerprint)) continue;
    const pair = pairKey(enhancement);
    const previous = byPair.get(pair) ?? [];
    if (strategy === 'merge_defensive' && previous.length > 0) continue;
    if (strategy === 'merge_aggressive') {
      for (const older of previous) supersede.push({ id: older.id, by: enhancement.id });
      byPair.set(pair, [enhancement]);
    } else {
      byPair.set(pair, [...previous, enhancement]);
    }
    fingerprints.add(enhancement.fingerprint);
    enhancements.push(enhancement);
  }
  return { kind: 'merge', referenceId: existing._id, identifiers, enhancements, supersede };
}
