import { MongoError, MongoErrorLabel } from 'mongodb';

// Which MongoDB failures are worth another attempt: the database unreachable, restarting, failing
// over or overloaded, as opposed to a refused write (duplicate key, validation) that will fail the
// same way again. Callers answer them 503 so their own callers retry (§8.5 `retrying`).

/** Driver errors that mean no server could be reached or the connection broke. */
const UNREACHABLE = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError', 'MongoNotConnectedError', 'MongoTopologyClosedError', 'MongoPoolClearedError', 'MongoServerClosedError', 'MongoClientClosedError']);

/**
 * Server codes the driver itself retries reads and writes on (the retryable-reads and
 * retryable-writes specifications): host unreachable or not found, network timeout, shutdown in
 * progress, primary stepped down, socket exception, not writable primary, interrupted at shutdown
 * or by a replica-set state change, not primary, exceeded time limit, majority read not yet available.
 */
const RETRYABLE_SERVER_CODES = new Set([6, 7, 89, 91, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

/** Socket failures the driver can pass on unwrapped, e.g. a write after the server closed the connection (EPIPE). */
const SOCKET_FAILURES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

const TRANSIENT_LABELS = [MongoErrorLabel.RetryableWriteError, MongoErrorLabel.TransientTransactionError, MongoErrorLabel.ResetPool, MongoErrorLabel.RetryableError, MongoErrorLabel.SystemOverloadedError];

export function isTransientMongoError(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  if (UNREACHABLE.has(error.name) || SOCKET_FAILURES.has(String((error as NodeJS.ErrnoException).code))) return true;
  if (error instanceof MongoError) {
    if (TRANSIENT_LABELS.some((label) => error.hasErrorLabel(label))) return true;
    if (typeof error.code === 'number' && RETRYABLE_SERVER_CODES.has(error.code)) return true;
  }
  // An unordered bulk write (insertMany with ordered: false) wraps the network error it met, as
  // `errorResponse`; other wrappers keep it as `cause`.
  const wrapped = (error as { errorResponse?: unknown }).errorResponse ?? error.cause;
  return wrapped !== error && isTransientMongoError(wrapped, depth + 1);
}
