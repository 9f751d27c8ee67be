// `filter_path`: responses reduced to the listed dotted paths (`*` matches one key, `**` any depth,
// a leading `-` excludes), as Elasticsearch's common response filtering does.

type Json = Record<string, unknown>;

function matchesSegment(pattern: string, key: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*')) return pattern === key;
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(key);
}

function include(value: unknown, paths: string[][]): unknown {
  if (paths.some((path) => path.length === 0)) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => include(item, paths)).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const output: Json = {};
  for (const [key, child] of Object.entries(value as Json)) {
    const rest: string[][] = [];
    for (const path of paths) {
      if (path[0] === '**') {
        rest.push(path);
        if (path.length > 1 && matchesSegment(path[1], key)) rest.push(path.slice(2));
      } else if (matchesSegment(path[0], key)) rest.push(path.slice(1));
    }
    if (rest.length === 0) continue;
    const filtered = include(child, rest);
    if (filtered !== undefined) output[key] = filtered;
  }
  return Object.keys(output).length > 0 ? output : undefined;
}

function exclude(value: unknown, path: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => exclude(item, path));
  if (value === null || typeof value !== 'object' || path.length === 0) return value;
  const output: Json = {};
  for (const [key, child] of Object.entries(value as Json)) {
    if (!matchesSegment(path[0], key)) output[key] = child;
    else if (path.length > 1) output[key] = exclude(child, path.slice(1));
  }
  return output;
}

export function applyFilterPath(body: unknown, filterPath: string | null): unknown {
  if (!filterPath) return body;
  const specs = filterPath
    .split(',')
    .map((spec) => spec.trim())
    .filter(Boolean);
  const inclusions = specs.filter((spec) => !spec.startsWith('-')).map((spec) => spec.split('.'));
  let result = inclusions.length > 0 ? (include(body, inclusions) ?? {}) : body;
  for (const spec of specs.filter((item) => item.startsWith('-'))) result = exclude(result, spec.slice(1).split('.'));
  return result;
}
