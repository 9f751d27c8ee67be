import { BSON, type Collection, type Document } from 'mongodb';
import type { ReferenceDocument } from '../domain/reference.model';

// Reads of what views are built from, and nothing else (not the import bookkeeping, the writer
// token, the version or the outbox), answered as the store's BSON bytes: a caller that has seen
// the same bytes before need not decode them again.

export type ReferenceViewSource = Pick<ReferenceDocument, '_id' | 'visibility' | 'identifiers' | 'enhancements' | 'active_decision'>;

const VIEW_FIELDS: Document = { visibility: 1, identifiers: 1, enhancements: 1, active_decision: 1 };

/** One document as stored (its BSON bytes) with its id. */
export interface RawReference {
  id: string;
  bytes: Buffer;
}

/** The document's `_id` when it leads as a string (as the store writes it), else null. */
export function leadingStringId(bytes: Buffer): string | null {
  // A BSON document: int32 size, then elements (type byte, C-string name, value); a string value
  // is an int32 byte length (counting its NUL) followed by UTF-8 bytes and the NUL.
  if (bytes.length < 14 || bytes[4] !== 0x02 || bytes[5] !== 0x5f || bytes[6] !== 0x69 || bytes[7] !== 0x64 || bytes[8] !== 0x00) return null;
  const length = bytes.readInt32LE(9);
  if (length < 1 || 13 + length > bytes.length) return null;
  return bytes.toString('utf8', 13, 13 + length - 1);
}

/** Decodes view sources as the driver decodes documents it returns. */
export function decodeReference(bytes: Buffer): ReferenceViewSource {
  return BSON.deserialize(bytes) as ReferenceViewSource;
}

function raw(bytes: Buffer): RawReference {
  return { id: leadingStringId(bytes) ?? decodeReference(bytes)._id, bytes };
}

export function createReferenceContentRepository(references: Collection<ReferenceDocument>) {
  return {
    async getManyRaw(ids: readonly string[]): Promise<RawReference[]> {
      if (ids.length === 0) return [];
      // One batch for all of them: the default first batch (101) would add a round trip.
      const rows = (await references.find({ _id: { $in: [...ids] } }, { projection: VIEW_FIELDS, raw: true, batchSize: ids.length }).toArray()) as unknown as Buffer[];
      return rows.map(raw);
    },
    /** Active duplicates of the given canonicals, decoded and with their bytes, in id order (the view order of §6.9). */
    async duplicatesOf(canonicalIds: readonly string[]): Promise<Array<RawReference & { document: ReferenceViewSource }>> {
      if (canonicalIds.length === 0) return [];
      const rows = (await references
        .find({ 'active_decision.canonical_reference_id': { $in: [...canonicalIds] }, 'active_decision.duplicate_determination': 'duplicate' }, { projection: VIEW_FIELDS, raw: true })
        .toArray()) as unknown as Buffer[];
      const duplicates = rows.map((bytes) => {
        const document = decodeReference(bytes);
        return { id: document._id, bytes, document };
      });
      // Sorted here, as reference.repository does: a server-side sort makes the MongoDB stand-in walk the collection.
      return duplicates.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
  };
}

export type ReferenceContentRepository = ReturnType<typeof createReferenceContentRepository>;
