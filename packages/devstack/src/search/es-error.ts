// Elasticsearch-shaped failures: every error the stand-in returns is one of these, rendered the way
// Elasticsearch renders its exceptions (`{"error": {root_cause, type, reason, …}, "status"}`).

export interface EsErrorCause {
  type: string;
  reason: string;
  [key: string]: unknown;
}

export class EsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
    readonly extra: Record<string, unknown> = {},
    readonly causedBy?: EsErrorCause,
    readonly rootCause?: EsErrorCause[],
  ) {
    super(reason);
  }

  /** The `error` object of the response body. */
  toCause(): EsErrorCause {
    const cause: EsErrorCause = { type: this.type, reason: this.message, ...this.extra };
    if (this.causedBy) cause.caused_by = this.causedBy;
    return cause;
  }

  toBody(): Record<string, unknown> {
    const own: EsErrorCause = { type: this.type, reason: this.message, ...this.extra };
    const rootCause = this.rootCause ?? (this.causedBy && !NOT_ROOT_CAUSES.has(this.causedBy.type) ? [deepest(this.causedBy)] : [own]);
    return { error: { root_cause: rootCause, ...this.toCause() }, status: this.status };
  }
}

// Java exceptions that are not ElasticsearchExceptions never become the reported root cause.
const NOT_ROOT_CAUSES = new Set(['named_object_not_found_exception', 'x_content_parse_exception', 'illegal_argument_exception', 'number_format_exception', 'token_mgr_error']);

function deepest(cause: EsErrorCause): EsErrorCause {
  let current = cause;
  while (current.caused_by && typeof current.caused_by === 'object' && !NOT_ROOT_CAUSES.has((current.caused_by as EsErrorCause).type)) {
    current = current.caused_by as EsErrorCause;
  }
  const { caused_by: _ignored, ...rest } = current;
  return rest as EsErrorCause;
}

export function indexNotFound(name: string): EsError {
  return new EsError(404, 'index_not_found_exception', `no such index [${name}]`, {
    'resource.type': 'index_or_alias',
    'resource.id': name,
    index_uuid: '_na_',
    index: name,
  });
}

export function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason);
}

export function illegalArgument(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

export function actionRequestValidation(reason: string): EsError {
  return new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ${reason};`);
}

/** A query that fails on the shard (after request parsing), wrapped the way a search reports it. */
export class QueryShardError extends Error {
  constructor(
    reason: string,
    readonly causedBy?: EsErrorCause,
    readonly type = 'query_shard_exception',
  ) {
    super(reason);
  }

  toCause(index: string, indexUuid: string): EsErrorCause {
    const cause: EsErrorCause = { type: this.type, reason: this.message, index_uuid: indexUuid, index };
    if (this.causedBy) cause.caused_by = this.causedBy;
    return cause;
  }
}

export function searchPhaseFailure(shardFailure: QueryShardError, index: string, indexUuid: string): EsError {
  const reason = shardFailure.toCause(index, indexUuid);
  const root = shardFailure.causedBy ? deepest(shardFailure.causedBy) : { ...reason };
  return new EsError(
    400,
    'search_phase_execution_exception',
    'all shards failed',
    { phase: 'query', grouped: true, failed_shards: [{ shard: 0, index, node: 'devstack-node', reason }] },
    undefined,
    [root],
  );
}
