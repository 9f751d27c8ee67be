// What robot-broker needs from dedup-service (gRPC in production, anything in tests).
import type { AddEnhancementOutcome__Output as AddEnhancementOutcome } from '@destiny/contracts/generated/grpc/destiny/dedup_service/AddEnhancementOutcome';

// The outcome's fields are documented on AddEnhancementOutcome in protos/destiny/dedup_service.proto.
export type { AddEnhancementOutcome };

export interface ReferenceStorePort {
  /** Which of these references are stored, in request order; no reference is read whole. */
  storedReferenceIds(ids: readonly string[]): Promise<string[]>;
  /** Deduplicated views (§6.9) in request order; missing references omitted. */
  deduplicatedViews(ids: readonly string[]): Promise<Array<Record<string, unknown> & { id: string }>>;
  /**
   * The reference-file lines of `deduplicatedViews` (§12.2, §6.1: no decision, nulls omitted,
   * full texts only for `fullTextEntitled`), in request order; `fullText` marks a line holding a
   * full-text enhancement whose `file_url` is not presented yet (§6.6).
   */
  referenceFileLines(ids: readonly string[], fullTextEntitled: boolean): Promise<Array<{ id: string; line: string; fullText: boolean }>>;
  /** The stored reference (§6.1 plus its decision), not deduplicated; null when it does not exist. */
  getReference(id: string): Promise<(Record<string, unknown> & { id: string }) | null>;
  /** `enhancement_ids`: ids chosen by the caller, one per enhancement (a retry sends the same ones). */
  addEnhancements(request: { enhancements_json: string[]; enhancement_ids?: string[]; robot_id: string; robot_enhancement_batch_id: string; enhancement_request_id: string }): Promise<AddEnhancementOutcome[]>;
}

export const SIGNED_URL_SECONDS = 3600;
