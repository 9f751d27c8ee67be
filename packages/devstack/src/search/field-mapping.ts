// Index mappings: the JSON tree Elasticsearch returns from GET _mapping, the flattened field table
// the index and queries use, dynamic mapping of new fields, and parsing of a document into the
// values each field indexes (split into nested levels, each level a hidden document as in Lucene).
import { EsError } from './es-error';
import { parseDateValue } from './date-format';
import { type Analyzer, type AnalyzerRegistry } from './text-analysis';

export type MappingJson = Record<string, unknown> & { properties?: Record<string, MappingJson> };

const NUMERIC_TYPES = new Set(['integer', 'long', 'short', 'byte', 'float', 'double', 'half_float', 'scaled_float', 'unsigned_long']);
const INTEGER_TYPES = new Set(['integer', 'long', 'short', 'byte', 'unsigned_long']);
const LEAF_TYPES = new Set([...NUMERIC_TYPES, 'text', 'keyword', 'match_only_text', 'date', 'boolean', 'percolator', 'flattened', 'constant_keyword', 'wildcard']);
const INTEGER_RANGES: Record<string, [number, number]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  long: [Number.MIN_SAFE_INTEGER * 1024, Number.MAX_SAFE_INTEGER * 1024],
  unsigned_long: [0, Number.MAX_SAFE_INTEGER * 2048],
};

export interface FieldInfo {
  readonly path: string;
  readonly type: string;
  /** Path of the nested object whose hidden documents hold this field ('' = root documents). */
  readonly level: string;
  readonly analyzer: Analyzer;
  readonly searchAnalyzer: Analyzer;
  readonly scalingFactor: number;
  readonly ignoreAbove: number;
  readonly indexed: boolean;
  readonly multiFields: FieldInfo[];
}

export interface ObjectInfo {
  readonly path: string;
  readonly nested: boolean;
  readonly dynamic: string;
  readonly level: string;
  /** `enabled: false`: kept in _source, never parsed or indexed. */
  readonly disabled?: boolean;
}

export type FieldValue = string | number | boolean | Record<string, unknown>;

/**
 * A key path of parsed documents with what the mapping says about it, cached per mapping so
 * parsing neither joins nor hashes path strings per value.
 */
export interface PathNode {
  readonly path: string;
  readonly field: FieldInfo | undefined;
  readonly object: ObjectInfo | undefined;
  readonly children: Map<string, PathNode>;
  /** Dynamically mapped field infos of this path, by type. */
  readonly dynamicFields: Map<string, FieldInfo>;
}

/** One Lucene-level document: the root document or one nested object. */
export interface ParsedLevelDoc {
  values: Array<[FieldInfo, FieldValue]>;
  children: Array<{ path: string; doc: ParsedLevelDoc }>;
}

export function isNumericType(type: string): boolean {
  return NUMERIC_TYPES.has(type);
}

export function isIntegerType(type: string): boolean {
  return INTEGER_TYPES.has(type);
}

function mapperParsing(reason: string): EsError {
  return new EsError(400, 'mapper_parsing_exception', reason);
}

/** Validates a mapping definition and returns it in the normalised form GET _mapping shows. */
export function normalizeMapping(input: unknown, path = ''): MappingJson {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw mapperParsing(`Expected map for property [properties] on field [${path || '_doc'}] but got a class java.lang.String`);
  const source = input as Record<string, unknown>;
  const output: MappingJson = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'properties') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw mapperParsing(`Expected map for property [properties] on field [${path || '_doc'}]`);
      const properties: Record<string, MappingJson> = {};
      for (const [name, definition] of Object.entries(value as Record<string, unknown>)) {
        properties[name] = normalizeField(definition, path ? `${path}.${name}` : name);
      }
      output.properties = properties;
    } else if (key === 'dynamic') {
      output.dynamic = String(value);
    } else if (['_source', '_meta', '_routing', 'date_detection', 'numeric_detection', 'dynamic_templates', 'dynamic_date_formats', 'subobjects', 'enabled'].includes(key)) {
      output[key] = value;
    } else if (!path) {
      throw mapperParsing(`Root mapping definition has unsupported parameters:  [${key} : ${JSON.stringify(value)}]`);
    }
  }
  return output;
}

function normalizeField(definition: unknown, path: string): MappingJson {
  if (definition === null || typeof definition !== 'object' || Array.isArray(definition)) throw mapperParsing(`Expected map for property [fields] on field [${path}] but got a class java.lang.String`);
  const source = definition as Record<string, unknown>;
  const type = source.type === undefined ? 'object' : String(source.type);
  if (type === 'object' || type === 'nested') {
    const normalized = normalizeMapping({ ...source, type: undefined }, path);
    delete (normalized as Record<string, unknown>).type;
    const result: MappingJson = type === 'nested' ? { type: 'nested' } : {};
    for (const key of ['dynamic', 'enabled', 'include_in_parent', 'include_in_root']) if (source[key] !== undefined) result[key] = key === 'dynamic' ? String(source[key]) : source[key];
    if (normalized.properties) result.properties = normalized.properties;
    return result;
  }
  if (!LEAF_TYPES.has(type)) throw mapperParsing(`No handler for type [${type}] declared on field [${path.split('.').pop()}]`);
  if (type === 'scaled_float' && typeof source.scaling_factor !== 'number') throw mapperParsing(`Field [scaling_factor] is required`);
  const result: MappingJson = { ...source, type };
  if (source.fields !== undefined) {
    const fields: Record<string, MappingJson> = {};
    for (const [name, sub] of Object.entries(source.fields as Record<string, unknown>)) fields[name] = normalizeField(sub, `${path}.${name}`);
    result.fields = fields;
  }
  return result;
}

function describeType(definition: MappingJson): string {
  return typeof definition.type === 'string' ? definition.type : 'object';
}

/** Merges a PUT _mapping body into the current mapping; type changes are rejected like Elasticsearch. */
export function mergeMapping(current: MappingJson, update: MappingJson, path = ''): MappingJson {
  const merged: MappingJson = { ...current, ...update };
  if (current.properties || update.properties) {
    const properties: Record<string, MappingJson> = { ...(current.properties ?? {}) };
    for (const [name, definition] of Object.entries(update.properties ?? {})) {
      const fullPath = path ? `${path}.${name}` : name;
      const existing = properties[name];
      if (!existing) {
        properties[name] = definition;
        continue;
      }
      const before = describeType(existing);
      const after = describeType(definition);
      if (before !== after) throw new EsError(400, 'illegal_argument_exception', `mapper [${fullPath}] cannot be changed from type [${before}] to [${after}]`);
      if (before === 'object' || before === 'nested') properties[name] = mergeMapping(existing, definition, fullPath);
      else {
        for (const key of ['analyzer', 'scaling_factor']) {
          if (definition[key] !== undefined && existing[key] !== undefined && definition[key] !== existing[key]) {
            throw new EsError(400, 'illegal_argument_exception', `Mapper for [${fullPath}] conflicts with existing mapper:\n\tCannot update parameter [${key}] from [${String(existing[key])}] to [${String(definition[key])}]`);
          }
        }
        const fields = { ...((existing.fields as Record<string, MappingJson>) ?? {}), ...((definition.fields as Record<string, MappingJson>) ?? {}) };
        properties[name] = { ...existing, ...definition, ...(Object.keys(fields).length ? { fields } : {}) };
      }
    }
    merged.properties = properties;
  }
  return merged;
}

/** The compiled view of an index mapping. */
export class Mapping {
  readonly fields = new Map<string, FieldInfo>();
  readonly objects = new Map<string, ObjectInfo>();
  readonly nestedPaths: string[] = [];
  private hasPercolator = false;

  constructor(
    readonly json: MappingJson,
    readonly analyzers: AnalyzerRegistry,
  ) {
    this.compile(json, '', '', json.dynamic === undefined ? 'true' : String(json.dynamic));
    this.hasPercolator = [...this.fields.values()].some((field) => field.type === 'percolator');
  }

  get percolatorFields(): FieldInfo[] {
    return this.hasPercolator ? [...this.fields.values()].filter((field) => field.type === 'percolator') : [];
  }

  private compile(node: MappingJson, prefix: string, level: string, dynamic: string): void {
    for (const [name, definition] of Object.entries(node.properties ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      const type = describeType(definition);
      if (type === 'object' || type === 'nested') {
        const nested = type === 'nested';
        const childDynamic = definition.dynamic === undefined ? dynamic : String(definition.dynamic);
        this.objects.set(path, { path, nested, dynamic: childDynamic, level: nested ? path : level, disabled: definition.enabled === false });
        if (nested) this.nestedPaths.push(path);
        this.compile(definition, path, nested ? path : level, childDynamic);
      } else {
        this.fields.set(path, this.leaf(definition, path, level));
      }
    }
  }

  private leaf(definition: MappingJson, path: string, level: string): FieldInfo {
    const type = String(definition.type);
    const analyzer = this.analyzers.get(definition.analyzer as string | undefined);
    const multiFields: FieldInfo[] = [];
    for (const [name, sub] of Object.entries((definition.fields as Record<string, MappingJson>) ?? {})) {
      const info = this.leaf(sub, `${path}.${name}`, level);
      multiFields.push(info);
      this.fields.set(info.path, info);
    }
    return {
      path,
      type,
      level,
      analyzer,
      searchAnalyzer: definition.search_analyzer ? this.analyzers.get(definition.search_analyzer as string) : analyzer,
      scalingFactor: typeof definition.scaling_factor === 'number' ? definition.scaling_factor : 1,
      ignoreAbove: typeof definition.ignore_above === 'number' ? definition.ignore_above : Number.POSITIVE_INFINITY,
      indexed: definition.index !== false,
      multiFields,
    };
  }

  readonly rootNode: PathNode = { path: '', field: undefined, object: undefined, children: new Map(), dynamicFields: new Map() };
  private pathNodeCount = 0;

  /** The node of `key` below `parent` (documents with arbitrary keys stop the cache growing past 10,000 paths). */
  childNode(parent: PathNode, key: string): PathNode {
    const cached = parent.children.get(key);
    if (cached) return cached;
    const path = parent.path ? `${parent.path}.${key}` : key;
    const node: PathNode = { path, field: this.fields.get(path), object: this.objects.get(path), children: new Map(), dynamicFields: new Map() };
    if (this.pathNodeCount < 10_000) {
      this.pathNodeCount += 1;
      parent.children.set(key, node);
    }
    return node;
  }

  /** Field infos of dynamically mapped fields, shared by the documents that introduce the same field. */
  private readonly dynamicFields = new Map<string, FieldInfo>();

  /** The info of a field dynamic mapping introduces (with a `keyword` sub-field for strings). */
  dynamicField(path: string, type: string, level: string, withKeyword: boolean): FieldInfo {
    const key = `${path}\u0000${type}\u0000${level}\u0000${withKeyword}`;
    let info = this.dynamicFields.get(key);
    if (info) return info;
    const analyzer = this.analyzers.get(undefined);
    const leaf = (leafPath: string, leafType: string, ignoreAbove: number, multiFields: FieldInfo[]): FieldInfo => ({
      path: leafPath,
      type: leafType,
      level,
      analyzer,
      searchAnalyzer: analyzer,
      scalingFactor: 1,
      ignoreAbove,
      indexed: true,
      multiFields,
    });
    info = leaf(path, type, Number.POSITIVE_INFINITY, withKeyword ? [leaf(`${path}.keyword`, 'keyword', 256, [])] : []);
    // Percolated documents never extend the mapping, so arbitrary keys must not grow this forever.
    if (this.dynamicFields.size >= 10_000) this.dynamicFields.clear();
    this.dynamicFields.set(key, info);
    return info;
  }

  /** Nested level that a field (or object path) belongs to. */
  levelOf(path: string): string | undefined {
    return this.fields.get(path)?.level ?? this.objects.get(path)?.level;
  }

  /** Parent level of a nested level ('' for top-level nested objects). */
  parentLevel(level: string): string {
    let best = '';
    for (const candidate of this.nestedPaths) if (level.startsWith(`${candidate}.`) && candidate.length > best.length) best = candidate;
    return best;
  }
}

interface DynamicAddition {
  path: string;
  definition: MappingJson;
}

export interface ParseOutcome {
  root: ParsedLevelDoc;
  /** New fields introduced by dynamic mapping (the caller merges them into the mapping). */
  additions: DynamicAddition[];
}

const METADATA_FIELDS = new Set(['_id', '_index', '_source', '_version', '_seq_no', '_primary_term', '_routing', '_field_names', '_ignored', '_tier', '_doc_count']);

const DYNAMIC_DATE = /^\d{4}[-/]\d{2}[-/]\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function dynamicDefinition(value: unknown): MappingJson | undefined {
  if (typeof value === 'string') {
    if (DYNAMIC_DATE.test(value) && parseDateValue(value.replace(/\//g, '-')) !== undefined) return { type: 'date' };
    return { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'long' : 'float' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (value !== null && typeof value === 'object') return {};
  return undefined;
}

function documentParsing(reason: string, causedBy?: { type: string; reason: string }): EsError {
  return new EsError(400, 'document_parsing_exception', reason, {}, causedBy);
}

/** Turns a field value into what the index stores for it, with Elasticsearch's coercion rules. */
export function coerceValue(field: FieldInfo, value: unknown, docId: string): FieldValue | undefined {
  const fail = (reason?: string) =>
    documentParsing(
      `[1:2] failed to parse field [${field.path}] of type [${field.type}] in document with id '${docId}'. Preview of field's value: '${typeof value === 'object' ? JSON.stringify(value) : String(value)}'`,
      reason ? { type: 'illegal_argument_exception', reason } : undefined,
    );
  switch (field.type) {
    case 'text':
    case 'match_only_text':
    case 'keyword':
    case 'constant_keyword':
    case 'wildcard':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw fail();
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true') return true;
      if (value === 'false' || value === '') return false;
      throw fail(`Failed to parse value [${String(value)}] as only [true] or [false] are allowed.`);
    case 'date': {
      const millis = parseDateValue(value);
      if (millis === undefined) throw fail(`failed to parse date field [${String(value)}] with format [strict_date_optional_time||epoch_millis]`);
      return millis;
    }
    case 'percolator':
    case 'flattened':
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
      throw fail();
    default: {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(number)) throw fail(typeof value === 'string' ? `For input string: "${value}"` : undefined);
      if (INTEGER_TYPES.has(field.type)) {
        const truncated = Math.trunc(number);
        const [min, max] = INTEGER_RANGES[field.type];
        if (truncated < min || truncated > max) throw fail(`Value [${String(value)}] is out of range for ${field.type === 'integer' ? 'an integer' : `a ${field.type}`}`);
        return truncated;
      }
      if (field.type === 'scaled_float') return Math.round(number * field.scalingFactor) / field.scalingFactor;
      if (field.type === 'float' || field.type === 'half_float') return Math.fround(number);
      return number;
    }
  }
}

/**
 * Parses a source document against the mapping (applying dynamic mapping where allowed).
 * `indexedFields`: only these field paths keep their values (every value is still validated, so a
 * document fails exactly as it would when fully parsed); nested objects always become hidden docs.
 */
export function parseDocument(mapping: Mapping, source: Record<string, unknown>, docId: string, indexedFields?: ReadonlySet<string>): ParseOutcome {
  const additions: DynamicAddition[] = [];
  const rootDynamic = mapping.json.dynamic === undefined ? 'true' : String(mapping.json.dynamic);

  // Paths dynamic mapping introduced in this document (only the document's later values see them).
  let pendingFields: Map<string, FieldInfo> | undefined;
  let pendingObjects: Map<string, ObjectInfo> | undefined;
  const resolveField = (node: PathNode): FieldInfo | undefined => node.field ?? pendingFields?.get(node.path);
  const resolveObject = (node: PathNode): ObjectInfo | undefined => node.object ?? pendingObjects?.get(node.path);

  const addValue = (doc: ParsedLevelDoc, field: FieldInfo, value: unknown) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) addValue(doc, field, item);
      return;
    }
    if (typeof value === 'object' && field.type !== 'percolator' && field.type !== 'flattened') {
      throw documentParsing(`[1:2] failed to parse field [${field.path}] of type [${field.type}] in document with id '${docId}'. Preview of field's value: '${JSON.stringify(value)}'`);
    }
    const coerced = coerceValue(field, value, docId);
    if (coerced === undefined) return;
    if (!indexedFields || indexedFields.has(field.path)) doc.values.push([field, coerced]);
    for (const multi of field.multiFields) {
      const sub = coerceValue(multi, value, docId);
      if (sub !== undefined && (!indexedFields || indexedFields.has(multi.path))) doc.values.push([multi, sub]);
    }
  };

  const parseObject = (doc: ParsedLevelDoc, object: Record<string, unknown>, parent: PathNode, level: string, dynamic: string) => {
    const keys = Object.keys(object);
    for (let index = 0; index < keys.length; index += 1) {
      const rawKey = keys[index];
      const value = object[rawKey];
      if (rawKey === '') throw documentParsing(`[1:2] failed to parse: field name cannot be an empty string`, { type: 'illegal_argument_exception', reason: 'field name cannot be an empty string' });
      const node = mapping.childNode(parent, rawKey);
      // Dotted keys are object paths, as Elasticsearch expands them.
      if (rawKey.includes('.') && !resolveField(node)) {
        const [head, ...rest] = rawKey.split('.');
        parseObject(doc, { [head]: expandDotted(rest, value) }, parent, level, dynamic);
        continue;
      }
      parseEntry(doc, node, rawKey, value, parent.path, level, dynamic);
    }
  };

  const parseEntry = (doc: ParsedLevelDoc, node: PathNode, key: string, value: unknown, prefix: string, level: string, dynamic: string) => {
    const path = node.path;
    const field = resolveField(node);
    if (field) {
      addValue(doc, field, value);
      return;
    }
    const objectInfo = resolveObject(node);
    if (objectInfo?.disabled) return;
    if (objectInfo) {
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) {
        if (item === null || item === undefined) continue;
        if (typeof item !== 'object' || Array.isArray(item)) {
          throw documentParsing(`[1:2] object mapping for [${path}] tried to parse field [${key}] as object, but found a concrete value`);
        }
        if (objectInfo.nested) {
          const child: ParsedLevelDoc = { values: [], children: [] };
          parseObject(child, item as Record<string, unknown>, node, path, objectInfo.dynamic);
          doc.children.push({ path, doc: child });
        } else {
          parseObject(doc, item as Record<string, unknown>, node, level, objectInfo.dynamic);
        }
      }
      return;
    }
    if (value === null || (Array.isArray(value) && value.every((item) => item === null))) return;
    if (dynamic === 'strict') {
      throw new EsError(400, 'strict_dynamic_mapping_exception', `[1:2] mapping set to strict, dynamic introduction of [${key}] within [${prefix || '_doc'}] is not allowed`);
    }
    if (dynamic !== 'true') return;
    const sample = Array.isArray(value) ? value.find((item) => item !== null && item !== undefined) : value;
    if (sample === undefined) return;
    const definition = dynamicDefinition(sample);
    if (!definition) return;
    additions.push({ path, definition });
    if (definition.type === undefined) {
      (pendingObjects ??= new Map()).set(path, { path, nested: false, dynamic, level });
    } else {
      const type = String(definition.type);
      let info = node.dynamicFields.get(type);
      if (info === undefined || info.level !== level) {
        info = mapping.dynamicField(path, type, level, definition.fields !== undefined);
        node.dynamicFields.set(type, info);
      }
      pendingFields ??= new Map();
      pendingFields.set(path, info);
      for (const multi of info.multiFields) pendingFields.set(multi.path, multi);
    }
    parseEntry(doc, node, key, value, prefix, level, dynamic);
  };

  for (const key of Object.keys(source)) {
    if (METADATA_FIELDS.has(key)) {
      throw documentParsing(`[1:${key.length + 3}] failed to parse: Field [${key}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`, {
        type: 'document_parsing_exception',
        reason: `[1:${key.length + 3}] Field [${key}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`,
      });
    }
  }
  const root: ParsedLevelDoc = { values: [], children: [] };
  parseObject(root, source, mapping.rootNode, '', rootDynamic);
  return { root, additions };
}

function expandDotted(keys: string[], value: unknown): unknown {
  let result = value;
  for (let index = keys.length - 1; index >= 0; index -= 1) result = { [keys[index]]: result };
  return result;
}

/** Adds dynamically mapped fields into a mapping tree (creating intermediate objects). */
export function applyAdditions(json: MappingJson, additions: DynamicAddition[], mapping: Mapping): MappingJson {
  let update: MappingJson = {};
  for (const { path, definition } of additions) {
    const parts = path.split('.');
    let node = update;
    for (let index = 0; index < parts.length - 1; index += 1) {
      node.properties ??= {};
      const objectPath = parts.slice(0, index + 1).join('.');
      const existing = mapping.objects.get(objectPath);
      node.properties[parts[index]] ??= existing?.nested ? { type: 'nested' } : {};
      node = node.properties[parts[index]];
    }
    node.properties ??= {};
    node.properties[parts[parts.length - 1]] = definition;
  }
  update = mergeMapping(json, update);
  return update;
}
