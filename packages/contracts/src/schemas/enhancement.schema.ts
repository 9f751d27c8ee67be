import { Type, type Static } from '@sinclair/typebox';
import { jsonStructureProblem } from '../validation/json-structure';
import { validate } from '../validation/validate';
import { describeIssues } from '../validation/validation-issue';
import { DateTime, DROP_UNKNOWN_KEYS, Nullable, Uuid } from './common.schema';
import { EnhancementContent } from './enhancement-content.schema';
import { Visibility } from './enums.schema';

// Enhancements (§6.5), their import-file form and the robot result-file lines (§12.4).

export const Enhancement = Type.Object(
  {
    id: Type.Optional(Nullable(Uuid(), { default: null })),
    reference_id: Uuid(),
    source: Type.String(),
    visibility: Visibility,
    robot_version: Type.Optional(Nullable(Type.String(), { default: null })),
    derived_from: Type.Optional(Nullable(Type.Array(Uuid()), { default: null })),
    content: EnhancementContent,
    created_at: Type.Optional(Nullable(DateTime(), { default: null })),
  },
  { $id: 'Enhancement', ...DROP_UNKNOWN_KEYS },
);
export type Enhancement = Static<typeof Enhancement>;

/**
 * An enhancement inside an import-file line. The reference impl reads the robot version from
 * `processor_version`; the SDK writes `robot_version`; both are accepted (§6.5 decision). It has
 * no `derived_from` (§6.5): a file's enhancements derive from nothing stored, so the key is dropped
 * like any other undeclared one.
 */
export const EnhancementFileInput = Type.Object(
  {
    source: Type.String(),
    visibility: Visibility,
    processor_version: Type.Optional(Nullable(Type.String(), { default: null })),
    robot_version: Type.Optional(Nullable(Type.String(), { default: null })),
    content: EnhancementContent,
  },
  { $id: 'EnhancementFileInput', ...DROP_UNKNOWN_KEYS },
);
export type EnhancementFileInput = Static<typeof EnhancementFileInput>;

/** The robot version an import-file enhancement carries: `robot_version` wins over `processor_version`. */
export function enhancementFileInputRobotVersion(input: Pick<EnhancementFileInput, 'processor_version' | 'robot_version'>): string | null {
  return input.robot_version ?? input.processor_version ?? null;
}

/** A per-reference failure in a robot result file. */
export const LinkedRobotError = Type.Object(
  { reference_id: Uuid(), message: Type.String() },
  { $id: 'LinkedRobotError' },
);
export type LinkedRobotError = Static<typeof LinkedRobotError>;

/** One line of a robot result file: an Enhancement or a LinkedRobotError (documentation form). */
export const RobotResultFileLine = Type.Union([Enhancement, LinkedRobotError], { $id: 'RobotResultFileLine' });
export type RobotResultFileLine = Static<typeof RobotResultFileLine>;

export type ParsedRobotResultLine =
  | { kind: 'enhancement'; enhancement: Enhancement }
  | { kind: 'error'; error: LinkedRobotError }
  | { kind: 'invalid'; reason: string };

/**
 * Classifies a parsed result-file line as §12.4 says: try `Enhancement` first (defaults applied),
 * then `LinkedRobotError`; otherwise the line is a parse failure with a readable reason.
 */
export function parseRobotResultLine(value: unknown): ParsedRobotResultLine {
  const problem = jsonStructureProblem(value);
  if (problem !== undefined) return { kind: 'invalid', reason: problem.replace(/\.$/, '') };
  // Each reading as pydantic's lax mode would make it (the reference implementation's TypeAdapter).
  const asEnhancement = validate(Enhancement, structuredClone(value), 'line');
  if (asEnhancement.ok) return { kind: 'enhancement', enhancement: asEnhancement.value };
  const asError = validate(LinkedRobotError, structuredClone(value), 'line');
  if (asError.ok) return { kind: 'error', error: asError.value };
  const looksLikeEnhancement = value !== null && typeof value === 'object' && ('content' in value || 'source' in value);
  return { kind: 'invalid', reason: describeIssues(looksLikeEnhancement ? asEnhancement.errors : asError.errors) };
}

/** One line of the validation-result file the service writes per robot batch (§12.6). */
export const RobotResultValidationEntry = Type.Object(
  { reference_id: Type.Optional(Uuid()), error: Type.Optional(Type.String()) },
  { $id: 'RobotResultValidationEntry' },
);
export type RobotResultValidationEntry = Static<typeof RobotResultValidationEntry>;
