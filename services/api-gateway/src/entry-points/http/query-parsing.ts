import type { ValidationIssueBody } from '@destiny/platform';

const TRUE_VALUES = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_VALUES = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** A boolean query flag read the way the reference implementation reads it. */
export function parseBooleanQuery(raw: unknown, name: string, fallback: boolean): { value?: boolean; issue?: ValidationIssueBody } {
  if (raw === undefined) return { value: fallback };
  const text = Array.isArray(raw) ? String(raw[raw.length - 1]) : String(raw);
  const lowered = text.toLowerCase();
  if (TRUE_VALUES.has(lowered)) return { value: true };
  if (FALSE_VALUES.has(lowered)) return { value: false };
  return { issue: { type: 'bool_parsing', loc: ['query', name], msg: 'Input should be a valid boolean, unable to interpret input', input: text } };
}

export function validationErrorBody(issues: ValidationIssueBody[]): { detail: ValidationIssueBody[] } {
  return { detail: issues };
}
