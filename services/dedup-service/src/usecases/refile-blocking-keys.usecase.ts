import type { Logger } from '@destiny/platform';
import type { BlockingKeyRepository } from '../data-access/blocking-key.repository';
import type { ReferenceRepository } from '../data-access/reference.repository';
import { computeDedupRecord, keptDedupRecord } from '../domain/dedup-record';
import type { DeduplicationEnginePort } from '../domain/deduplication-engine.port';

const PAGE_SIZE = 500;

/**
 * Files references again whose keys an earlier engine wrote (another blocking format): a new
 * normalisation (a spelling fold, a newly generic title) files a record under other keys, and a
 * reference filed under the old ones alone would not be found by the references that come after
 * the upgrade. Keys are only added, so lookups meanwhile still find it under the old ones. Runs
 * once per format, in id order, a page at a time with a pause between pages so imports keep the
 * store; a failed page is tried again after `retryMs`; a restart begins again with the references
 * still in another format, and once none is left a marker spares later starts the scan.
 */
export function startBlockingKeyRefiling(deps: {
  references: Pick<ReferenceRepository, 'summaries' | 'getMany'>;
  blocking: Pick<BlockingKeyRepository, 'allFiledInFormat' | 'markAllFiledInFormat' | 'filedInOtherFormat' | 'refile'>;
  engine: DeduplicationEnginePort;
  logger: Logger;
  pauseMs?: number;
  retryMs?: number;
}) {
  const pauseMs = deps.pauseMs ?? 20;
  const retryMs = deps.retryMs ?? 30_000;
  let stopped = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      // Never what keeps a process alive: stop() wakes it, and a process ending anyway does not wait.
      const timer = setTimeout(resolve, ms).unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function refilePage(ids: string[]): Promise<void> {
    const summaries = await deps.references.summaries(ids);
    const records = new Map(summaries.flatMap((summary) => {
      const kept = keptDedupRecord(deps.engine, summary);
      return kept ? [[summary._id, kept] as const] : [];
    }));
    const unkept = summaries.filter((summary) => !records.has(summary._id)).map((summary) => summary._id);
    for (const reference of await deps.references.getMany(unkept)) records.set(reference._id, computeDedupRecord(deps.engine, reference));
    // A row without its reference (an ingest that stopped between the two writes) is marked as it is.
    await deps.blocking.refile(ids.map((id) => ({ referenceId: id, keys: records.has(id) ? deps.engine.blockingKeys(records.get(id)!) : [] })));
  }

  async function run(): Promise<void> {
    let markerRead = false;
    let after = '';
    let refiled = 0;
    while (!stopped) {
      try {
        if (!markerRead) {
          if (await deps.blocking.allFiledInFormat()) return;
          markerRead = true;
        }
        const ids = await deps.blocking.filedInOtherFormat(after, PAGE_SIZE);
        if (ids.length === 0) {
          await deps.blocking.markAllFiledInFormat();
          if (refiled > 0) deps.logger.info({ references: refiled, format: deps.engine.blockingFormat }, 'references filed again under the current blocking keys');
          return;
        }
        await refilePage(ids);
        refiled += ids.length;
        after = ids[ids.length - 1];
        await sleep(pauseMs);
      } catch (error) {
        deps.logger.warn({ err: error, after }, 'filing references again under the current blocking keys failed; trying again');
        await sleep(retryMs);
      }
    }
  }

  const running = run();
  return {
    /** Resolves once every reference is filed in the current format (or the refiling was stopped). */
    done: running,
    async stop(): Promise<void> {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
