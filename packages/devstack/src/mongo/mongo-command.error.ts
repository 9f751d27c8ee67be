// An error answered to the client as MongoDB does: `{ok: 0, errmsg, code, codeName, ...extra}`.

export const ErrorCodes = {
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  PathNotViable: 28,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  DollarPrefixedFieldName: 52,
  InvalidIdField: 53,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CannotCreateIndex: 67,
  InvalidPipelineOperator: 168,
  QueryPlanKilled: 175,
  DuplicateKey: 11000,
  UnrecognizedPipelineStage: 40324,
} as const;

const codeNames = new Map<number, string>(
  Object.entries(ErrorCodes)
    .filter(([name]) => name !== 'UnrecognizedPipelineStage')
    .map(([name, code]) => [code, name]),
);

export class MongoCommandError extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly extra: Record<string, unknown>;

  constructor(code: number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.codeName = codeNames.get(code) ?? `Location${code}`;
    this.extra = extra;
  }

  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }
}

export function badValue(message: string): MongoCommandError {
  return new MongoCommandError(ErrorCodes.BadValue, message);
}
