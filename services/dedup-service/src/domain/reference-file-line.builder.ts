import { serialiseJsonLine } from '@destiny/contracts';
import { currentEnhancements, enhancementOut, type ReferenceContent } from './reference.model';

// The robot reference file's line of a reference (§12.2, §6.1): its deduplicated view (§6.9)
// without the decision, redacted for the caller, written as robot-broker wrote it from the view.

export interface ReferenceFileLine {
  id: string;
  /** The JSONL record without its newline. */
  line: string;
  /** The line holds a full-text enhancement (its `file_url` is presented by the caller, §6.6). */
  fullText: boolean;
}

/** `duplicates`: the reference's active duplicates in view order (none for a duplicate itself). */
export function referenceFileLine(reference: ReferenceContent, duplicates: readonly ReferenceContent[], fullTextEntitled: boolean): ReferenceFileLine {
  const identifiers = [...(reference.identifiers ?? [])];
  const enhancements: Array<Record<string, unknown>> = [];
  let fullText = false;
  for (const part of [reference, ...duplicates]) {
    if (part !== reference) identifiers.push(...part.identifiers);
    for (const enhancement of currentEnhancements(part)) {
      const isFullText = (enhancement.content as { enhancement_type?: unknown } | null)?.enhancement_type === 'full_text';
      if (isFullText && !fullTextEntitled) continue;
      fullText ||= isFullText;
      enhancements.push(enhancementOut(enhancement));
    }
  }
  return { id: reference._id, line: serialiseJsonLine({ visibility: reference.visibility, id: reference._id, identifiers, enhancements }), fullText };
}
