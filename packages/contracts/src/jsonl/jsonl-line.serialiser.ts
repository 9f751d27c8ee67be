// JSONL written by the service (robot reference files, validation files, exports), §1.4:
// null-valued keys omitted at every depth (empty arrays kept), and U+0085, U+2028, U+2029
// replaced by the two-character escape `\n` so that every record sits on one physical line.

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item));
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item !== null && item !== undefined) result[key] = withoutNulls(item);
  }
  return result;
}

/** One JSONL record, without the trailing newline. */
export function serialiseJsonLine(value: unknown): string {
  return JSON.stringify(withoutNulls(value)).replace(/[\u0085\u2028\u2029]/g, '\\n');
}

/** Records joined as a JSONL document (each line ends with `\n`). */
export function serialiseJsonLines(values: Iterable<unknown>): string {
  let text = '';
  for (const value of values) text += `${serialiseJsonLine(value)}\n`;
  return text;
}
