// What JSON.parse accepts but nothing downstream can hold: nesting deeper than the stack allows
// echoing or canonicalising it, numbers JSON.parse turned into Infinity (1e400; stored, they
// would silently become null), and object keys with a NUL character (BSON cannot store them).

/**
 * Deepest nesting of arrays and objects a request body or import line may have. No contract
 * document comes near it (an automation's query is the deepest, ~10 levels).
 */
export const MAX_JSON_DEPTH = 100;

/** Why a parsed JSON value cannot be accepted, walked without recursion; undefined when it can. */
export function jsonStructureProblem(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : OUT_OF_RANGE;
  if (value === null || typeof value !== 'object') return undefined;
  const pending: Array<[object, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [object, number];
    if (depth > MAX_JSON_DEPTH) return `JSON is nested deeper than ${MAX_JSON_DEPTH} levels.`;
    if (Array.isArray(item)) {
      for (const child of item) {
        if (typeof child === 'number') {
          if (!Number.isFinite(child)) return OUT_OF_RANGE;
        } else if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
      }
      continue;
    }
    for (const key in item) {
      if (key.includes('\0')) return `The object key ${JSON.stringify(key)} contains a NUL character.`;
      const child = (item as Record<string, unknown>)[key];
      if (typeof child === 'number') {
        if (!Number.isFinite(child)) return OUT_OF_RANGE;
      } else if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return undefined;
}

const OUT_OF_RANGE = 'A number is out of range: JSON numbers must be finite double-precision values.';
