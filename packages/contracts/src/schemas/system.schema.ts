import { Type, type Static } from '@sinclair/typebox';
import { IndexAlias } from './enums.schema';

// System routes (§3.3) and error bodies (§1.5, §5).

/** Which dependencies the healthcheck probes; each flag defaults to true. */
export const HealthcheckQuery = Type.Object({
  database: Type.Optional(Type.Boolean({ default: true })),
  elasticsearch: Type.Optional(Type.Boolean({ default: true })),
  azure_blob_storage: Type.Optional(Type.Boolean({ default: true })),
});
export type HealthcheckQuery = Static<typeof HealthcheckQuery>;

export const StatusOk = Type.Object({ status: Type.Literal('ok') }, { $id: 'StatusOk' });
export type StatusOk = Static<typeof StatusOk>;

export const IndexRepairPathParams = Type.Object({ alias: IndexAlias });
export type IndexRepairPathParams = Static<typeof IndexRepairPathParams>;

export const IndexRepairResponse = Type.Object({ status: Type.Literal('ok'), message: Type.String() }, { $id: 'IndexRepairResponse' });
export type IndexRepairResponse = Static<typeof IndexRepairResponse>;

/** A handled error: `{"detail": "<string>"}`. */
export const ErrorDetail = Type.Object({ detail: Type.String() }, { $id: 'ErrorDetail' });
export type ErrorDetail = Static<typeof ErrorDetail>;

export const ValidationIssueSchema = Type.Object(
  {
    type: Type.String(),
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
    msg: Type.String(),
    input: Type.Unknown(),
    ctx: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'ValidationIssue' },
);

/** A 422 request-validation failure: `{"detail": [ValidationIssue, …]}`. */
export const ValidationErrorBody = Type.Object({ detail: Type.Array(ValidationIssueSchema) }, { $id: 'HTTPValidationError' });
export type ValidationErrorBody = Static<typeof ValidationErrorBody>;

export const NOT_FOUND_DETAIL = 'Not Found';
export const METHOD_NOT_ALLOWED_DETAIL = 'Method Not Allowed';

/** `<Model> with id <uuid> does not exist.` (§5.1). */
export function notFoundDetail(model: string, id: string): string {
  return `${model} with id ${id} does not exist.`;
}

/** The set form of §5.1 for body/query existence checks: ids comma-separated inside `[…]`. */
export function missingIdsDetail(model: string, ids: readonly string[]): string {
  return `${model} with id [${ids.join(', ')}] does not exist.`;
}

/** The 409 of a unique-constraint violation (§5.1). */
export function uniqueViolationDetail(model: string, columns: readonly string[], values: readonly string[]): string {
  return `Unable to perform operation on ${model}. Violation: Key (${columns.join(', ')})=(${values.join(', ')}) already exists.`;
}
