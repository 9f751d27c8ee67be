import type { BlobStorage } from '../blob/blob-storage';
import { storedFullTextKeyOf } from './full-text.location';

// §6.6: on output a full text's `file_url` is a signed download URL of the stored copy. Applied
// after the full_text entitlement check, to what the caller may see.

interface EnhancementLike {
  content?: { enhancement_type?: unknown; file_url?: unknown; mime_type?: unknown } | null;
}

interface ReferenceLike {
  enhancements?: EnhancementLike[] | null;
}

export interface FullTextLinks {
  /** The reference with each stored full text's `file_url` signed (a copy; the input is not changed). */
  present<T>(reference: T): Promise<T>;
  presentAll<T>(references: readonly T[]): Promise<T[]>;
}

function storedKey(enhancement: EnhancementLike): string | null {
  return enhancement?.content?.enhancement_type === 'full_text' ? storedFullTextKeyOf(enhancement.content.file_url) : null;
}

/**
 * `blob` null: this deployment cannot sign, so stored full texts are left out rather than shown
 * with a location nobody can download from. Full texts stored before ingestion existed (their
 * `file_url` is the original one) are passed through unchanged.
 */
export function createFullTextLinks(blob: BlobStorage | null, expirySeconds: number): FullTextLinks {
  async function present<T>(reference: T): Promise<T> {
    const enhancements = (reference as ReferenceLike | null)?.enhancements;
    if (!Array.isArray(enhancements) || !enhancements.some((enhancement) => storedKey(enhancement) !== null)) return reference;
    const presented: EnhancementLike[] = [];
    for (const enhancement of enhancements) {
      const key = storedKey(enhancement);
      if (key === null) presented.push(enhancement);
      else if (blob) {
        const mimeType = typeof enhancement.content?.mime_type === 'string' ? enhancement.content.mime_type : undefined;
        presented.push({ ...enhancement, content: { ...enhancement.content, file_url: await blob.signedGetUrl(key, expirySeconds, mimeType) } });
      }
    }
    return { ...reference, enhancements: presented };
  }
  return {
    present,
    presentAll: (references) => Promise.all(references.map((reference) => present(reference))),
  };
}
