// What JSON.parse accepts but nothing downstream can hold: nesting deeper than the stack allows
// echoing or canonicalising it, numbers JSON.parse turned into Infinity (1e400; stored, they
// would silently become null), object keys with a NUL character (BSON cannot store them), and
// strings holding an unpaired surrogate escape ("\ud800"), which is no Unicode text: stored, it
// would read back as U+FFFD (the reference implementation's JSON parser refuses it too).

/**
 * Deepest nesting of arrays and objects a request body or import line may have. No contract
 * document comes near it (an automation's query is the deepest, ~10 levels).
 */
export const MAX_JSON_DEPTH = 100;

/** Why a parsed JSON value cannot be accepted, walked without recursion; undefined when it can. */
export function jsonStructureProblem(value: unknown): string | undefined {
  const pending: Array<[object, number]> = [];
  /** A scalar's problem; an array or object is queued to be walked at `depth`. */
  const visit = (child: unknown, depth: number): string | undefined => {
    if (typeof child === 'string') return isWellFormed(child) ? undefined : LONE_SURROGATE;
    if (typeof child === 'number') return Number.isFinite(child) ? undefined : OUT_OF_RANGE;
    if (child !== null && typeof child === 'object') pending.push([child, depth]);
    return undefined;
  };
  let problem = visit(value, 1);
  while (problem === undefined && pending.length > 0) {
    const [item, depth] = pending.pop() as [object, number];
    if (depth > MAX_JSON_DEPTH) return `JSON is nested deeper than ${MAX_JSON_DEPTH} levels.`;
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length && problem === undefined; index += 1) problem = visit(item[index], depth + 1);
      continue;
    }
    for (const key in item) {
      if (key.includes('\0')) return `The object key ${JSON.stringify(key)} contains a NUL character.`;
      if (!isWellFormed(key)) return LONE_SURROGATE;
      problem = visit((item as Record<string, unknown>)[key], depth + 1);
      if (problem !== undefined) break;
    }
  }
  return problem;
}

const LONE_SURROGATE = 'A string holds an unpaired UTF-16 surrogate escape (such as \\ud800), which is not valid Unicode.';

/** String.prototype.isWellFormed (Node.js 20+; not yet in the ES2023 type library). */
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

const OUT_OF_RANGE = 'A number is out of range: JSON numbers must be finite double-precision values.';
