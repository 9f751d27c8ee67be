import { Enhancement, enhancementFingerprint, uuidv7, validate, type ChangeOrigin } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import type { ReferenceRepository } from '../data-access/reference.repository';
import { currentEnhancements, enhancementChangeset, isCanonicalLike, type StoredEnhancement } from '../domain/reference.model';
import { referenceChangedEntry } from '../domain/reference-changed.event-builder';

export interface AddEnhancementOutcome {
  reference_id: string;
  /** stored | discarded | failed */
  status: string;
  enhancement_id: string;
  error: string;
}

/** Stores enhancements append-only; an exact duplicate of a current one is discarded (§6.5). */
export function createAddEnhancements(deps: { references: ReferenceRepository; exclusive<T>(work: () => Promise<T>): Promise<T>; onEvents(): void }) {
  return async (request: { enhancements_json: string[]; robot_id: string; robot_enhancement_batch_id: string; enhancement_request_id: string }): Promise<AddEnhancementOutcome[]> => {
    const parsed = request.enhancements_json.map((text, index) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw ServiceError.unprocessable(`Enhancement ${index} is not JSON.`);
      }
      const result = validate(Enhancement, value, 'body');
      if (!result.ok) throw ServiceError.unprocessable(result.errors);
      return result.value;
    });
    const origin: ChangeOrigin = {};
    if (request.robot_id) origin.robot_id = request.robot_id;
    if (request.robot_enhancement_batch_id) origin.robot_enhancement_batch_id = request.robot_enhancement_batch_id;
    if (request.enhancement_request_id) origin.enhancement_request_id = request.enhancement_request_id;
    return deps.exclusive(async () => {
      const references = new Map((await deps.references.getMany(parsed.map((item) => item.reference_id))).map((row) => [row._id, row]));
      const outcomes: AddEnhancementOutcome[] = [];
      const added = new Map<string, StoredEnhancement[]>();
      const now = new Date();
      for (const item of parsed) {
        const reference = references.get(item.reference_id);
        if (!reference) {
          outcomes.push({ reference_id: item.reference_id, status: 'failed', enhancement_id: '', error: `Reference with id ${item.reference_id} does not exist.` });
          continue;
        }
        const content = item.content as unknown as Record<string, unknown>;
        const fingerprint = enhancementFingerprint({ source: item.source, visibility: item.visibility, robot_version: item.robot_version ?? null, derived_from: item.derived_from ?? null, content });
        const pendingHere = added.get(reference._id) ?? [];
        const existing = [...currentEnhancements(reference), ...pendingHere].find((enhancement) => enhancement.fingerprint === fingerprint);
        if (existing) {
          outcomes.push({ reference_id: reference._id, status: 'discarded', enhancement_id: existing.id, error: '' });
          continue;
        }
        const stored: StoredEnhancement = {
          id: uuidv7(),
          reference_id: reference._id,
          source: item.source,
          visibility: item.visibility,
          robot_version: item.robot_version ?? null,
          derived_from: item.derived_from ?? null,
          content,
          created_at: now.toISOString(),
          superseded_by: null,
          fingerprint,
        };
        added.set(reference._id, [...pendingHere, stored]);
        outcomes.push({ reference_id: reference._id, status: 'stored', enhancement_id: stored.id, error: '' });
      }
      for (const [id, enhancements] of added) {
        const reference = references.get(id);
        if (!reference) continue;
        const after = { ...reference, enhancements: [...reference.enhancements, ...enhancements], version: reference.version + 1 };
        const duplicates = isCanonicalLike(after) ? ((await deps.references.duplicatesOf([id])).get(id) ?? []) : [];
        const event = referenceChangedEntry({ kind: 'enhanced', reference: after, duplicates, changeset: enhancementChangeset(enhancements), origin, now });
        await deps.references.update(id, reference.version, { version: after.version }, [event], { $push: { enhancements: { $each: enhancements } } });
      }
      if (added.size > 0) deps.onEvents();
      return outcomes;
    });
  };
}
