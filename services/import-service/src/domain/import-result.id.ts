import { derivedUuidv7 } from '@destiny/contracts';

/**
 * The id of a line's import result, derived from its batch and line number: an attempt that
 * crashed before recording results ingests the line again under the same id, which dedup-service
 * recognises (it keeps each id's outcome), so no line is ingested twice. A UUIDv7 whose timestamp
 * is the batch's and whose random bits come from a hash of (batch, line).
 */
export function importResultId(batchId: string, lineNumber: number): string {
  return derivedUuidv7(batchId, String(lineNumber));
}
