// Resolving dotted paths the way MongoDB's matcher does: through arrays of sub-documents and
// through numeric positions.
import { isPlainObject } from './bson-value.order';

function isArrayIndex(part: string): boolean {
  return part.length > 0 && part.length < 10 && /^[0-9]+$/.test(part);
}

function collect(value: unknown, parts: string[], index: number, out: unknown[]): void {
  if (index === parts.length) {
    out.push(value);
    return;
  }
  const part = parts[index];
  if (Array.isArray(value)) {
    if (isArrayIndex(part)) {
      const position = Number(part);
      if (position < value.length) collect(value[position], parts, index + 1, out);
    }
    for (const element of value) {
      if (isPlainObject(element)) collect(element, parts, index, out);
    }
    return;
  }
  if (isPlainObject(value)) {
    collect(value[part], parts, index + 1, out);
    return;
  }
  out.push(undefined);
}

/**
 * Every value the path reaches; arrays on the way are traversed, a leaf array is returned as is
 * (callers also look at its elements). A path reaching nothing yields `[undefined]`.
 */
export function pathValues(document: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(document, path.split('.'), 0, out);
  if (out.length === 0) out.push(undefined);
  return out;
}

/** The single value at a path without array traversal (numeric parts index arrays). */
export function getPath(document: unknown, path: string): unknown {
  let current: unknown = document;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) {
      if (!isArrayIndex(part)) return undefined;
      current = current[Number(part)];
    } else if (isPlainObject(current)) {
      current = current[part];
    } else {
      return undefined;
    }
  }
  return current;
}

/** Index and sort keys: leaf arrays are expanded into their elements (multikey). */
export function keyValues(document: unknown, path: string): unknown[] {
  const values = pathValues(document, path);
  const out: unknown[] = [];
  for (const value of values) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else out.push(...value);
    } else {
      out.push(value);
    }
  }
  return out;
}
