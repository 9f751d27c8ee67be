import { EnhancementContentRejected } from './enhancement-content.errors';
import type { FullTextContent, FullTextStore } from './full-text.store';
import type { LinkedDataContent, LinkedDataValidator } from './linked-data.validator';

// The one step between "the enhancement parses" and "store it" that needs the network: full texts
// are downloaded and stored, linked data is validated. Other types pass through untouched.

export type PreparedContent = { ok: true; content: Record<string, unknown> } | { ok: false; message: string };

export interface EnhancementContentPreparer {
  prepare(content: Record<string, unknown>): Promise<PreparedContent>;
  /**
   * Prepares the enhancements of one reference (in order, a few at a time): those that could not
   * be prepared are left out and their messages returned. Infrastructure failures are thrown.
   */
  prepareAll<E extends { content: unknown }>(enhancements: readonly E[]): Promise<{ enhancements: E[]; messages: string[] }>;
}

const NEEDS_PREPARATION = new Set(['full_text', 'linked_data']);
const CONCURRENCY = 4;
/** Full-text downloads in flight at once across all callers (each may be up to FULL_TEXT_MAX_BYTES). */
const FULL_TEXT_DOWNLOADS = 8;

function createLimiter(limit: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function limited<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next waiter, so the limit is never exceeded.
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/** Whether any of these enhancements needs the network before it can be stored (cheap; no await needed otherwise). */
export function needsContentPreparation(enhancements: ReadonlyArray<{ content?: unknown }> | null | undefined): boolean {
  return (enhancements ?? []).some((enhancement) => NEEDS_PREPARATION.has(String((enhancement?.content as { enhancement_type?: unknown } | undefined)?.enhancement_type)));
}

export function createEnhancementContentPreparer(deps: { fullTexts: FullTextStore; linkedData: LinkedDataValidator }): EnhancementContentPreparer {
  const downloads = createLimiter(FULL_TEXT_DOWNLOADS);

  async function prepare(content: Record<string, unknown>): Promise<PreparedContent> {
    try {
      if (content.enhancement_type === 'full_text') return { ok: true, content: await downloads(() => deps.fullTexts.store(content as FullTextContent)) };
      if (content.enhancement_type === 'linked_data') await deps.linkedData.validate(content as unknown as LinkedDataContent);
      return { ok: true, content };
    } catch (error) {
      if (error instanceof EnhancementContentRejected) return { ok: false, message: error.message };
      throw error;
    }
  }

  return {
    prepare,
    async prepareAll(enhancements) {
      const results: PreparedContent[] = new Array(enhancements.length);
      let next = 0;
      const worker = async () => {
        while (next < enhancements.length) {
          const index = next++;
          results[index] = await prepare(enhancements[index].content as Record<string, unknown>);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, enhancements.length) }, worker));
      const kept: typeof enhancements[number][] = [];
      const messages: string[] = [];
      results.forEach((result, index) => {
        if (result.ok) kept.push({ ...enhancements[index], content: result.content });
        else messages.push(result.message);
      });
      return { enhancements: kept, messages };
    },
  };
}
