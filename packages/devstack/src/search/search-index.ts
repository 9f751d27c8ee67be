// One index: settings, mapping, stored documents with Elasticsearch's version semantics
// (`_version`, `_seq_no`, `if_seq_no`, external versioning), its inverted index and percolator queries.
import { randomBytes } from 'node:crypto';
import { EsError, QueryShardError } from './es-error';
import { Mapping, type MappingJson, applyAdditions, mergeMapping, normalizeMapping, parseDocument } from './field-mapping';
import { SegmentSet } from './index-segment';
import { PercolateQuery, PercolatorStore, compileRecordingFields } from './percolator';
import { type CompileContext, compileQuery } from './query.compiler';
import { type Query } from './query.model';
import { AnalyzerRegistry } from './text-analysis';

export interface StoredDoc {
  readonly id: string;
  readonly source: Record<string, unknown>;
  readonly version: number;
  readonly seqNo: number;
  readonly primaryTerm: number;
}

export interface WriteOptions {
  opType?: 'index' | 'create';
  version?: number;
  versionType?: string;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
}

export interface WriteResult {
  result: 'created' | 'updated' | 'deleted' | 'not_found' | 'noop';
  version: number;
  seqNo: number;
  primaryTerm: number;
}

/** What a search reads: the live index or a point-in-time snapshot of it. */
export interface IndexView {
  readonly index: SearchIndex;
  readonly segments: SegmentSet;
  readonly docs: StoredDoc[];
  readonly live: Uint8Array;
  readonly maxDoc: number;
  readonly percolators: Map<string, PercolatorStore>;
}

export interface IndexMetadata {
  name: string;
  uuid: string;
  creationDate: number;
  settings: Record<string, unknown>;
  mappings: MappingJson;
}

export const PRIMARY_TERM = 1;

function flattenSettings(settings: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !path.startsWith('index.analysis') && !path.startsWith('analysis')) {
      Object.assign(flat, flattenSettings(value as Record<string, unknown>, path));
    } else flat[path] = value;
  }
  return flat;
}

/** Normalises create-index settings to Elasticsearch's `{index: {...}}` shape with string values. */
export function normalizeSettings(input: Record<string, unknown> | undefined, withDefaults = true): Record<string, unknown> {
  const flat = flattenSettings(input ?? {});
  const index: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(flat)) {
    const key = rawKey.startsWith('index.') ? rawKey.slice(6) : rawKey;
    if (key === 'analysis') {
      index.analysis = value;
      continue;
    }
    const parts = key.split('.');
    let node = index;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = Array.isArray(value) ? value.map(String) : typeof value === 'object' ? value : String(value);
  }
  if (withDefaults) {
    index.number_of_shards ??= '1';
    index.number_of_replicas ??= '1';
  }
  return index;
}

function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    const current = result[key];
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && current !== null && typeof current === 'object' && !Array.isArray(current)) {
      result[key] = deepMerge(current as Record<string, unknown>, value as Record<string, unknown>);
    } else result[key] = value;
  }
  return result;
}

function deepEqual(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

export class SearchIndex {
  readonly uuid: string;
  readonly creationDate: number;
  settings: Record<string, unknown>;
  mapping: Mapping;
  analyzers: AnalyzerRegistry;
  segments!: SegmentSet;
  docs: StoredDoc[] = [];
  live = new Uint8Array(1024);
  readonly byId = new Map<string, number>();
  /** Aliases pointing at this index, with their options (`is_write_index`, `filter`, …). */
  readonly aliases = new Map<string, Record<string, unknown>>();
  readonly tombstones = new Map<string, { version: number; seqNo: number }>();
  percolators = new Map<string, PercolatorStore>();
  seqNo = -1;
  liveCount = 0;
  private deadCount = 0;
  /** Open point-in-time snapshots hold references to these, so compaction replaces rather than mutates. */
  generation = 0;

  constructor(
    readonly name: string,
    settings: Record<string, unknown>,
    mappings: MappingJson,
    metadata?: { uuid: string; creationDate: number },
  ) {
    this.uuid = metadata?.uuid ?? randomBytes(16).toString('base64url').slice(0, 22);
    this.creationDate = metadata?.creationDate ?? Date.now();
    this.settings = settings;
    this.analyzers = new AnalyzerRegistry((settings.analysis ?? undefined) as ConstructorParameters<typeof AnalyzerRegistry>[0]);
    this.mapping = new Mapping(normalizeMapping(mappings), this.analyzers);
    this.resetSegments();
  }

  metadata(): IndexMetadata {
    return { name: this.name, uuid: this.uuid, creationDate: this.creationDate, settings: this.settings, mappings: this.mapping.json };
  }

  private resetSegments(): void {
    this.segments = new SegmentSet((level) => this.mapping.parentLevel(level));
  }

  view(): IndexView {
    return { index: this, segments: this.segments, docs: this.docs, live: this.live, maxDoc: this.docs.length, percolators: this.percolators };
  }

  snapshotView(): IndexView {
    return { index: this, segments: this.segments, docs: this.docs, live: this.live.slice(0, this.docs.length), maxDoc: this.docs.length, percolators: this.percolators };
  }

  /** Updates dynamic settings; static ones (analysis, shard count) cannot change on an open index. */
  putSettings(update: Record<string, unknown>): void {
    const normalized = normalizeSettings(update, false);
    const fixed = ['analysis', 'number_of_shards'].filter((key) => normalized[key] !== undefined);
    if (fixed.length > 0) {
      throw new EsError(400, 'illegal_argument_exception', `Can't update non dynamic settings [[${fixed.map((key) => `index.${key}`).join(', ')}]] for open indices [[${this.name}/${this.uuid}]]`);
    }
    this.settings = deepMerge(this.settings, normalized);
  }

  putMapping(update: unknown): void {
    const normalized = normalizeMapping(update);
    const merged = mergeMapping(this.mapping.json, normalized);
    this.mapping = new Mapping(merged, this.analyzers);
  }

  get(id: string): StoredDoc | undefined {
    const doc = this.byId.get(id);
    return doc === undefined ? undefined : this.docs[doc];
  }

  compileContext(strict: boolean): CompileContext {
    const mapping = this.mapping;
    return { mapping, strict, now: Date.now(), percolate: (body) => PercolateQuery.compile(body, mapping, (field) => this.percolators.get(field)) };
  }

  private conflict(id: string, reason: string): EsError {
    return new EsError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, ${reason}`, { index_uuid: this.uuid, shard: '0', index: this.name });
  }

  private checkVersion(id: string, options: WriteOptions): number {
    const current = this.get(id);
    const tombstone = this.tombstones.get(id);
    if (options.ifSeqNo !== undefined || options.ifPrimaryTerm !== undefined) {
      const seqNo = options.ifSeqNo ?? -2;
      const term = options.ifPrimaryTerm ?? 0;
      if (!current) throw this.conflict(id, `required seqNo [${seqNo}], primary term [${term}]. but no document was found`);
      if (current.seqNo !== seqNo || current.primaryTerm !== term) {
        throw this.conflict(id, `required seqNo [${seqNo}], primary term [${term}]. current document has seqNo [${current.seqNo}] and primary term [${current.primaryTerm}]`);
      }
    }
    const versionType = options.versionType ?? 'internal';
    if (versionType === 'external' || versionType === 'external_gte') {
      if (options.version === undefined || !Number.isInteger(options.version) || options.version < 0) {
        throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: illegal version value [' + String(options.version) + '] for version type [' + versionType.toUpperCase() + '];');
      }
      const existing = current?.version ?? tombstone?.version;
      if (existing !== undefined) {
        if (versionType === 'external' && options.version <= existing) throw this.conflict(id, `current version [${existing}] is higher or equal to the one provided [${options.version}]`);
        if (versionType === 'external_gte' && options.version < existing) throw this.conflict(id, `current version [${existing}] is higher than the one provided [${options.version}]`);
      }
      return options.version;
    }
    if (versionType !== 'internal') throw new EsError(400, 'illegal_argument_exception', `No version type match [${versionType}]`);
    if (options.version !== undefined) {
      throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead;');
    }
    if (current && options.opType === 'create') throw this.conflict(id, `document already exists (current version [${current.version}])`);
    return current ? current.version + 1 : (tombstone?.version ?? 0) + 1;
  }

  /** Indexes (or replaces) a document. `forced` replays a logged write without checks. */
  indexDocument(id: string, source: Record<string, unknown>, options: WriteOptions, forced?: { version: number; seqNo: number }): WriteResult {
    const existing = this.byId.get(id);
    const version = forced ? forced.version : this.checkVersion(id, options);
    const parsed = parseDocument(this.mapping, source, id);
    const queries = this.compilePercolatorQueries(source, !forced);
    if (parsed.additions.length > 0) this.mapping = new Mapping(applyAdditions(this.mapping.json, parsed.additions, this.mapping), this.analyzers);
    if (existing !== undefined) this.markDead(existing);
    const seqNo = forced ? forced.seqNo : this.seqNo + 1;
    this.seqNo = Math.max(this.seqNo, seqNo);
    const root = parsed.additions.length > 0 ? parseDocument(this.mapping, source, id).root : parsed.root;
    const doc = this.segments.addDocument(root);
    this.storeDoc(doc, { id, source, version, seqNo, primaryTerm: PRIMARY_TERM });
    for (const [field, { query, fields }] of queries) this.percolatorStore(field).add(doc, query, fields);
    this.tombstones.delete(id);
    this.maybeCompact();
    return { result: existing === undefined ? 'created' : 'updated', version, seqNo, primaryTerm: PRIMARY_TERM };
  }

  private storeDoc(doc: number, stored: StoredDoc): void {
    this.docs[doc] = stored;
    if (doc >= this.live.length) {
      const grown = new Uint8Array(Math.max(doc + 1, this.live.length * 2));
      grown.set(this.live);
      this.live = grown;
    }
    this.live[doc] = 1;
    this.liveCount += 1;
    this.byId.set(stored.id, doc);
  }

  private markDead(doc: number): void {
    if (this.live[doc] !== 1) return;
    this.live[doc] = 0;
    this.liveCount -= 1;
    this.deadCount += 1;
  }

  private percolatorStore(field: string): PercolatorStore {
    let store = this.percolators.get(field);
    if (!store) {
      store = new PercolatorStore();
      this.percolators.set(field, store);
    }
    return store;
  }

  /** Each percolator field's query, with the field paths it reads (null when unknown). */
  private compilePercolatorQueries(source: Record<string, unknown>, strict: boolean): Array<[string, { query: Query; fields: Set<string> | null }]> {
    const fields = this.mapping.percolatorFields;
    if (fields.length === 0) return [];
    const result: Array<[string, { query: Query; fields: Set<string> | null }]> = [];
    for (const field of fields) {
      let value: unknown = source;
      for (const part of field.path.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
      if (value === undefined || value === null) continue;
      try {
        const context = this.compileContext(strict);
        result.push([field.path, compileRecordingFields(context.mapping, (mapping) => compileQuery(value, { ...context, mapping }))]);
      } catch (error) {
        if (!strict) continue;
        const cause = error instanceof QueryShardError ? error.toCause(this.name, this.uuid) : error instanceof EsError ? error.toCause() : undefined;
        if (!cause) throw error;
        throw new EsError(400, 'document_parsing_exception', `[1:2] failed to parse: ${cause.reason}`, {}, cause);
      }
    }
    return result;
  }

  deleteDocument(id: string, options: WriteOptions, forced?: { version: number; seqNo: number }): WriteResult {
    const existing = this.byId.get(id);
    const current = existing === undefined ? undefined : this.docs[existing];
    let version: number;
    if (forced) version = forced.version;
    else if (options.versionType === 'external' || options.versionType === 'external_gte' || options.ifSeqNo !== undefined) version = this.checkVersion(id, options);
    else version = current ? current.version + 1 : (this.tombstones.get(id)?.version ?? 0) + 1;
    const seqNo = forced ? forced.seqNo : this.seqNo + 1;
    this.seqNo = Math.max(this.seqNo, seqNo);
    if (existing === undefined) {
      // An externally versioned delete of an absent document still records its version (a tombstone),
      // so an older write arriving later is refused.
      if (options.versionType === 'external' || options.versionType === 'external_gte') this.tombstones.set(id, { version, seqNo });
      return { result: 'not_found', version, seqNo, primaryTerm: PRIMARY_TERM };
    }
    this.markDead(existing);
    this.byId.delete(id);
    this.tombstones.set(id, { version, seqNo });
    this.maybeCompact();
    return { result: 'deleted', version, seqNo, primaryTerm: PRIMARY_TERM };
  }

  /** `_update` with a partial `doc`, `doc_as_upsert` or `upsert`. Returns the written source too. */
  updateDocument(id: string, body: Record<string, unknown>, options: WriteOptions): WriteResult & { source?: Record<string, unknown> } {
    if (body.script !== undefined) throw new EsError(400, 'illegal_argument_exception', 'scripted updates are not supported by this stand-in');
    const doc = body.doc as Record<string, unknown> | undefined;
    const upsert = body.upsert as Record<string, unknown> | undefined;
    if (doc === undefined && upsert === undefined) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: script or doc is missing;');
    const current = this.get(id);
    if (!current) {
      if (body.doc_as_upsert === true && doc) return { ...this.indexDocument(id, doc, { ...options, opType: 'create' }), source: doc };
      if (upsert) return { ...this.indexDocument(id, upsert, { ...options, opType: 'create' }), source: upsert };
      throw new EsError(404, 'document_missing_exception', `[${id}]: document missing`, { index_uuid: this.uuid, shard: '0', index: this.name });
    }
    const merged = deepMerge(current.source, doc ?? {});
    if (body.detect_noop !== false && deepEqual(merged, current.source)) {
      if (options.ifSeqNo !== undefined) this.checkVersion(id, options);
      return { result: 'noop', version: current.version, seqNo: current.seqNo, primaryTerm: current.primaryTerm, source: current.source };
    }
    return { ...this.indexDocument(id, merged, options), source: merged };
  }

  private maybeCompact(): void {
    if (this.deadCount < 10_000 || this.deadCount < this.liveCount) return;
    this.compact();
  }

  /** Rebuilds the inverted index from the live documents (like a Lucene merge dropping deletes). */
  compact(): void {
    const liveDocs = this.docs.filter((_doc, index) => this.live[index] === 1);
    this.resetSegments();
    this.docs = [];
    this.live = new Uint8Array(Math.max(1024, liveDocs.length));
    this.byId.clear();
    this.percolators = new Map();
    this.liveCount = 0;
    this.deadCount = 0;
    this.generation += 1;
    for (const stored of liveDocs) {
      const doc = this.segments.addDocument(parseDocument(this.mapping, stored.source, stored.id).root);
      this.storeDoc(doc, stored);
      for (const [field, { query, fields }] of this.compilePercolatorQueries(stored.source, false)) this.percolatorStore(field).add(doc, query, fields);
    }
  }
}
