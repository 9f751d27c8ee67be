import type { ImportBatchStatus, ImportResultStatus } from '@destiny/contracts';

// Batch status derived from its results (§8.7), plus our decisions: a file that could not be
// fetched (or was too large) fails the batch; a fully read empty file completes it; a file being
// read is `started` before its first results land (results are written per chunk, in their final
// state, rather than once as `created` and again when settled).

/** `pending`: registered, not yet picked up; `reading`: the worker is downloading and ingesting it. */
export type FileState = 'pending' | 'reading' | 'done' | 'failed';

export function batchStatus(statuses: ReadonlySet<ImportResultStatus>, file: FileState): ImportBatchStatus {
  if (file === 'failed') return 'failed';
  if (statuses.size === 0) return file === 'done' ? 'completed' : file === 'reading' ? 'started' : 'created';
  if (statuses.size === 1 && statuses.has('created')) return 'created';
  if (statuses.has('started') || statuses.has('retrying') || statuses.has('created')) return 'started';
  if (file !== 'done') return 'started';
  if (statuses.size === 1 && statuses.has('completed')) return 'completed';
  if (!statuses.has('completed')) return 'failed';
  return 'partially_failed';
}

export const TERMINAL_RESULT_STATUSES: readonly ImportResultStatus[] = ['completed', 'partially_failed', 'failed'];

export function isTerminalBatchStatus(status: ImportBatchStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'partially_failed';
}
