import { ExternalIdentifier } from '../schemas/identifier.schema';
import { validate } from '../validation/validate';
import { describeIssues, type ValidationIssue } from '../validation/validation-issue';

export type ParsedExternalIdentifier =
  | { ok: true; identifier: ExternalIdentifier }
  | { ok: false; message: string; issues: ValidationIssue[] };

/**
 * Normalises (§6.3: DOI clean-up, pm_id coercion, URL prefixes) and validates one identifier
 * object. The input is not modified. `message` is one readable line for failure details.
 */
export function parseExternalIdentifier(raw: unknown): ParsedExternalIdentifier {
  const result = validate(ExternalIdentifier, structuredClone(raw), 'line');
  if (result.ok) return { ok: true, identifier: result.value };
  return { ok: false, message: describeIssues(result.errors), issues: result.errors };
}
