import { BSON } from 'mongodb';

// MongoDB stores no document over 16 MiB. A reference grows with every merge, so a line that would
// take it over must fail on its own before anything is written, not fail the write of its whole chunk.

/** The largest reference a line may create or merge into: 16 MiB less room for what writes add later (decisions, events, comparison record). */
export const MAX_REFERENCE_BYTES = 16 * 1024 * 1024 - 256 * 1024;

/** The BSON size of a document (or of the part a merge adds). */
export function storedSize(document: object): number {
  return BSON.calculateObjectSize(document as BSON.Document);
}

/**
 * True when a line of this JSON length could make a document over the limit: BSON spends at most
 * ~6 bytes per JSON byte (an array of one-digit numbers), so shorter lines need no measuring.
 */
export function mayExceedReferenceLimit(jsonLength: number): boolean {
  return jsonLength * 8 > MAX_REFERENCE_BYTES;
}

/** Why a line fails that would create, or merge into, a reference over the limit. */
export function referenceTooLarge(mergedInto?: string): string {
  const limit = `larger than the ${MAX_REFERENCE_BYTES} bytes a stored reference may hold`;
  return mergedInto === undefined ? `The reference would be ${limit}.` : `Merging this line into reference ${mergedInto} would make it ${limit}.`;
}
