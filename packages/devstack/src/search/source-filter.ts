// `_source` filtering (`false`, include/exclude lists with `*` wildcards) as Elasticsearch applies it.

export interface SourceFilter {
  enabled: boolean;
  includes: string[];
  excludes: string[];
  /** Compiled patterns, built on first use and reused for every hit of a request. */
  compiled?: { includes: RegExp[]; excludes: RegExp[] };
}

function toList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(String);
  return String(value)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Reads `_source` from a body (`false`, `"a,b"`, `[...]`, `{includes, excludes}`) and URL parameters. */
export function parseSourceFilter(bodyValue: unknown, params: URLSearchParams): SourceFilter {
  const filter: SourceFilter = { enabled: true, includes: [], excludes: [] };
  const apply = (value: unknown) => {
    if (value === undefined || value === null) return;
    if (value === false || value === 'false') filter.enabled = false;
    else if (value === true || value === 'true') filter.enabled = true;
    else if (typeof value === 'object' && !Array.isArray(value)) {
      const spec = value as Record<string, unknown>;
      filter.includes = toList(spec.includes ?? spec.include);
      filter.excludes = toList(spec.excludes ?? spec.exclude);
    } else filter.includes = toList(value);
  };
  apply(bodyValue);
  if (params.has('_source')) apply(params.get('_source'));
  if (params.has('_source_includes')) filter.includes = toList(params.get('_source_includes'));
  if (params.has('_source_excludes')) filter.excludes = toList(params.get('_source_excludes'));
  return filter;
}

function patternRegex(pattern: string): RegExp {
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`);
}

export function applySourceFilter(source: Record<string, unknown>, filter: SourceFilter): Record<string, unknown> | undefined {
  if (!filter.enabled) return undefined;
  if (filter.includes.length === 0 && filter.excludes.length === 0) return source;
  filter.compiled ??= { includes: filter.includes.map(patternRegex), excludes: filter.excludes.map(patternRegex) };
  const { includes, excludes } = filter.compiled;
  const matchesPathOrAncestor = (patterns: RegExp[], path: string) => {
    if (patterns.some((pattern) => pattern.test(path))) return true;
    for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
      const prefix = path.slice(0, dot);
      if (patterns.some((pattern) => pattern.test(prefix))) return true;
    }
    return false;
  };
  const couldIncludeBelow = (path: string) => filter.includes.some((pattern) => pattern.startsWith(`${path}.`) || pattern.startsWith('*'));
  const walk = (value: Record<string, unknown>, prefix: string): Record<string, unknown> => {
    const output: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (excludes.length && matchesPathOrAncestor(excludes, path)) continue;
      const included = includes.length === 0 || matchesPathOrAncestor(includes, path);
      if (child !== null && typeof child === 'object') {
        if (included && excludes.length === 0) {
          output[key] = child;
          continue;
        }
        if (!included && !couldIncludeBelow(path)) continue;
        if (Array.isArray(child)) {
          const items = child
            .map((item) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? walk(item as Record<string, unknown>, path) : included ? item : undefined))
            .filter((item) => item !== undefined && !(typeof item === 'object' && item !== null && Object.keys(item).length === 0 && !included));
          if (items.length > 0 || included) output[key] = items;
        } else {
          const nested = walk(child as Record<string, unknown>, path);
          if (Object.keys(nested).length > 0 || included) output[key] = nested;
        }
      } else if (included) output[key] = child;
    }
    return output;
  };
  return walk(source, '');
}
