import { createHash } from 'node:crypto';

/**
 * The id of a line's import result, derived from its batch and line number: an attempt that
 * crashed before recording results ingests the line again under the same id, which dedup-service
 * recognises (it keeps each id's outcome), so no line is ingested twice. A UUIDv7 whose timestamp
 * is the batch's and whose random bits come from a hash of (batch, line).
 */
export function importResultId(batchId: string, lineNumber: number): string {
  const bytes = createHash('sha256').update(`${batchId}:${lineNumber}`).digest().subarray(0, 16);
  const batchHex = batchId.replace(/-/g, '');
  for (let i = 0; i < 6; i += 1) bytes[i] = parseInt(batchHex.slice(2 * i, 2 * i + 2), 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
