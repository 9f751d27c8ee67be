import { serialiseJsonLine } from '@destiny/contracts';
import type { FullTextLinks } from '@destiny/platform';
import { referenceFileRecord } from './full-text-redaction';

// The robot reference file (§12.2) from dedup-service's lines, which come redacted by the caller's
// entitlements (§6.1) and written as JSONL already; only a line holding a full text is parsed and
// written again, to present its stored copy's link (§6.6). Parsing a written line and writing it
// again gives the same bytes: nulls are gone already and the `\n` escape stays `\n`.

export interface ReferenceFileLineInput {
  line: string;
  fullText: boolean;
}

/** The JSONL document: each line followed by `\n`. */
export async function referenceFileText(lines: readonly ReferenceFileLineInput[], links: FullTextLinks): Promise<string> {
  const presented = await Promise.all(lines.map(async (item) => (item.fullText ? serialiseJsonLine(await links.present(JSON.parse(item.line) as unknown)) : item.line)));
  let text = '';
  for (const line of presented) text += `${line}\n`;
  return text;
}

/**
 * The line of one deduplicated view as dedup-service's `GetReferenceFileLines` writes it, for a
 * dedup-service of an earlier version that only serves the views (a rolling upgrade).
 */
export function referenceFileLineOfView(view: Parameters<typeof referenceFileRecord>[0], fullTextEntitled: boolean): ReferenceFileLineInput & { id: string } {
  const record = referenceFileRecord(view, fullTextEntitled ? ['full_text'] : []);
  const enhancements = record.enhancements as Array<{ content?: { enhancement_type?: string } }>;
  return { id: view.id, line: serialiseJsonLine(record), fullText: enhancements.some((enhancement) => enhancement.content?.enhancement_type === 'full_text') };
}
