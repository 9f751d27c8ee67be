// The cluster state of the stand-in (indices, aliases, points in time) and the Elasticsearch REST
// operations on it, each returning the status and body Elasticsearch would.
import { randomBytes } from 'node:crypto';
import { EsError, QueryShardError, illegalArgument, indexNotFound, parsingError, searchPhaseFailure } from './es-error';
import { type MappingJson } from './field-mapping';
import { parseDuration } from './date-format';
import { type Operation, OperationLog } from './operation-log';
import { type IndexView, SearchIndex, type WriteOptions, type WriteResult, normalizeSettings } from './search-index';
import { compileForView, executeMatches, liveDocs, runSearch } from './search-execution';
import { applySourceFilter, parseSourceFilter } from './source-filter';

export interface ApiResponse {
  status: number;
  body?: unknown;
}

type Json = Record<string, unknown>;

interface PointInTime {
  views: IndexView[];
  expiresAt: number;
}

const SHARDS = { total: 2, successful: 1, failed: 0 };
const SNAPSHOT_EVERY = 200_000;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function wildcardRegex(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

function validateIndexName(name: string): void {
  const invalid = (reason: string) => new EsError(400, 'invalid_index_name_exception', `Invalid index name [${name}], ${reason}`, { index_uuid: '_na_', index: name });
  if (name !== name.toLowerCase()) throw invalid('must be lowercase');
  if (/[\\/*?"<>| ,#:]/.test(name)) throw invalid('must not contain the following characters [\'\\\\\', \'/\', \'*\', \'?\', \'"\', \'<\', \'>\', \'|\', \' \', \',\']');
  if (/^[-_+]/.test(name)) throw invalid("must not start with '_', '-', or '+'");
  if (name === '.' || name === '..') throw invalid("must not be '.' or '..'");
  if (Buffer.byteLength(name) > 255) throw invalid('index name is too long, (' + Buffer.byteLength(name) + ' > 255)');
}

function numberParam(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) throw illegalArgument(`Failed to parse int parameter [${name}] with value [${value}]`);
  return number;
}

function writeOptions(params: URLSearchParams, opType?: 'index' | 'create'): WriteOptions {
  const explicitOp = params.get('op_type');
  return {
    opType: opType ?? (explicitOp === 'create' ? 'create' : 'index'),
    version: numberParam(params, 'version'),
    versionType: params.get('version_type') ?? undefined,
    ifSeqNo: numberParam(params, 'if_seq_no'),
    ifPrimaryTerm: numberParam(params, 'if_primary_term'),
  };
}

function generateId(): string {
  return randomBytes(15).toString('base64url');
}

export class SearchEngine {
  private readonly indices = new Map<string, SearchIndex>();
  private readonly pits = new Map<string, PointInTime>();
  private readonly log?: OperationLog;
  private pending: Operation[] = [];

  constructor(dataDir?: string) {
    if (dataDir) {
      this.log = new OperationLog(dataDir);
      this.replay();
    }
  }

  // ---- persistence ----

  private replay(): void {
    if (!this.log) return;
    for (const operation of this.log.load()) {
      try {
        this.apply(operation);
      } catch (_error) {
        // An operation that cannot be re-applied (e.g. against an index deleted later) is dropped.
        continue;
      }
    }
  }

  private apply(operation: Operation): void {
    switch (operation.op) {
      case 'create_index': {
        const index = new SearchIndex(operation.name, operation.settings, operation.mappings as MappingJson, { uuid: operation.uuid, creationDate: operation.creationDate });
        for (const [alias, options] of Object.entries(operation.aliases)) index.aliases.set(alias, options);
        this.indices.set(operation.name, index);
        break;
      }
      case 'delete_index':
        this.indices.delete(operation.name);
        break;
      case 'put_mapping':
        this.indices.get(operation.name)?.putMapping(operation.mappings);
        break;
      case 'put_settings':
        this.indices.get(operation.name)?.putSettings(operation.settings);
        break;
      case 'set_aliases': {
        const index = this.indices.get(operation.name);
        if (!index) break;
        index.aliases.clear();
        for (const [alias, options] of Object.entries(operation.aliases)) index.aliases.set(alias, options);
        break;
      }
      case 'index':
        this.indices.get(operation.name)?.indexDocument(operation.id, operation.source, {}, { version: operation.version, seqNo: operation.seqNo });
        break;
      case 'delete':
        this.indices.get(operation.name)?.deleteDocument(operation.id, {}, { version: operation.version, seqNo: operation.seqNo });
        break;
    }
  }

  private record(operation: Operation): void {
    if (this.log) this.pending.push(operation);
  }

  /** Writes the operations of the current request to the log (called once per request). */
  flush(): void {
    if (!this.log || this.pending.length === 0) return;
    this.log.append(this.pending);
    this.pending = [];
    // Snapshots cost time proportional to the data, so large stores take them less often.
    let live = 0;
    for (const index of this.indices.values()) live += index.liveCount;
    if (this.log.appendedSinceSnapshot >= Math.max(SNAPSHOT_EVERY, live * 2)) this.snapshot();
  }

  private *stateOperations(): Generator<Operation> {
    for (const index of this.indices.values()) {
      yield {
        op: 'create_index',
        name: index.name,
        uuid: index.uuid,
        creationDate: index.creationDate,
        settings: index.settings,
        mappings: index.mapping.json,
        aliases: Object.fromEntries(index.aliases),
      };
      for (let doc = 0; doc < index.docs.length; doc += 1) {
        if (index.live[doc] !== 1) continue;
        const stored = index.docs[doc];
        yield { op: 'index', name: index.name, id: stored.id, source: stored.source, version: stored.version, seqNo: stored.seqNo };
      }
    }
  }

  snapshot(): void {
    this.log?.snapshot(this.stateOperations());
  }

  close(): void {
    if (!this.log) return;
    this.flush();
    this.snapshot();
    this.log.close();
  }

  // ---- name resolution ----

  private aliasTargets(alias: string): SearchIndex[] {
    return [...this.indices.values()].filter((index) => index.aliases.has(alias));
  }

  /** Indices named by an expression (`a,b`, `logs-*`, aliases, `_all`). */
  resolve(expression: string | undefined, options: { ignoreUnavailable?: boolean; allowNoIndices?: boolean } = {}): Array<{ index: SearchIndex; alias?: string }> {
    const parts = (expression === undefined || expression === '' ? '_all' : expression).split(',').map((part) => part.trim());
    const found = new Map<string, { index: SearchIndex; alias?: string }>();
    for (const part of parts) {
      if (part === '_all' || part === '*') {
        for (const index of this.indices.values()) found.set(index.name, { index });
        continue;
      }
      if (part.includes('*')) {
        const regex = wildcardRegex(part);
        for (const index of this.indices.values()) {
          if (regex.test(index.name)) found.set(index.name, { index });
          for (const alias of index.aliases.keys()) if (regex.test(alias) && !found.has(index.name)) found.set(index.name, { index, alias });
        }
        continue;
      }
      const index = this.indices.get(part);
      if (index) {
        found.set(index.name, { index });
        continue;
      }
      const targets = this.aliasTargets(part);
      if (targets.length > 0) {
        for (const target of targets) if (!found.has(target.name)) found.set(target.name, { index: target, alias: part });
        continue;
      }
      if (!options.ignoreUnavailable) throw indexNotFound(part);
    }
    if (found.size === 0 && options.allowNoIndices === false) throw indexNotFound(expression ?? '_all');
    return [...found.values()];
  }

  private concrete(name: string): SearchIndex {
    const index = this.indices.get(name);
    if (index) return index;
    const targets = this.aliasTargets(name);
    if (targets.length === 1) return targets[0];
    if (targets.length > 1) {
      const writeIndex = targets.find((target) => target.aliases.get(name)?.is_write_index === true);
      if (writeIndex) return writeIndex;
      throw illegalArgument(
        `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
      );
    }
    throw indexNotFound(name);
  }

  /** The index a write goes to, creating it (with dynamic mapping) when missing, as Elasticsearch does. */
  private writeTarget(name: string): SearchIndex {
    if (this.indices.has(name) || this.aliasTargets(name).length > 0) return this.concrete(name);
    this.createIndex(name, {});
    return this.concrete(name);
  }

  // ---- cluster ----

  info(): ApiResponse {
    return {
      status: 200,
      body: {
        name: 'devstack-node',
        cluster_name: 'devstack',
        cluster_uuid: 'devstack-search-stand-in',
        version: {
          number: '9.1.0',
          build_flavor: 'default',
          build_type: 'tar',
          build_hash: 'devstack',
          build_date: '2025-07-01T00:00:00.000Z',
          build_snapshot: false,
          lucene_version: '10.2.2',
          minimum_wire_compatibility_version: '8.19.0',
          minimum_index_compatibility_version: '8.0.0',
        },
        tagline: 'You Know, for Search',
      },
    };
  }

  health(indexExpression?: string): ApiResponse {
    if (indexExpression) this.resolve(indexExpression);
    const shards = indexExpression ? this.resolve(indexExpression).length : this.indices.size;
    return {
      status: 200,
      body: {
        cluster_name: 'devstack',
        status: 'green',
        timed_out: false,
        number_of_nodes: 1,
        number_of_data_nodes: 1,
        active_primary_shards: shards,
        active_shards: shards,
        relocating_shards: 0,
        initializing_shards: 0,
        unassigned_shards: 0,
        unassigned_primary_shards: 0,
        delayed_unassigned_shards: 0,
        number_of_pending_tasks: 0,
        number_of_in_flight_fetch: 0,
        task_max_waiting_in_queue_millis: 0,
        active_shards_percent_as_number: 100.0,
      },
    };
  }

  // ---- indices ----

  createIndex(name: string, body: unknown): ApiResponse {
    validateIndexName(name);
    if (this.indices.has(name)) {
      const existing = this.indices.get(name) as SearchIndex;
      throw new EsError(400, 'resource_already_exists_exception', `index [${name}/${existing.uuid}] already exists`, { index_uuid: existing.uuid, index: name });
    }
    if (this.aliasTargets(name).length > 0) throw new EsError(400, 'invalid_index_name_exception', `Invalid index name [${name}], already exists as alias`, { index_uuid: '_na_', index: name });
    const spec = isObject(body) ? body : {};
    for (const key of Object.keys(spec)) {
      if (!['settings', 'mappings', 'aliases'].includes(key)) throw parsingError(`unknown key [${key}] for create index`);
    }
    const settings = normalizeSettings(spec.settings as Json | undefined);
    const index = new SearchIndex(name, settings, (spec.mappings ?? {}) as MappingJson);
    if (isObject(spec.aliases)) {
      for (const [alias, options] of Object.entries(spec.aliases)) {
        if (this.indices.has(alias)) throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`, { index_uuid: '_na_', index: alias });
        index.aliases.set(alias, isObject(options) ? options : {});
      }
    }
    this.indices.set(name, index);
    this.record({ op: 'create_index', name, uuid: index.uuid, creationDate: index.creationDate, settings, mappings: index.mapping.json, aliases: Object.fromEntries(index.aliases) });
    return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: name } };
  }

  deleteIndex(expression: string, params: URLSearchParams): ApiResponse {
    const names = expression.split(',');
    const targets: SearchIndex[] = [];
    for (const name of names) {
      if (name.includes('*') || name === '_all') {
        targets.push(...this.resolve(name, { ignoreUnavailable: true }).map((entry) => entry.index));
        continue;
      }
      const index = this.indices.get(name);
      if (index) targets.push(index);
      else if (this.aliasTargets(name).length > 0) {
        throw illegalArgument(`The provided expression [${name}] matches an alias, specify the corresponding concrete indices instead.`);
      } else if (params.get('ignore_unavailable') !== 'true') throw indexNotFound(name);
    }
    for (const index of targets) {
      this.indices.delete(index.name);
      this.record({ op: 'delete_index', name: index.name });
    }
    return { status: 200, body: { acknowledged: true } };
  }

  indexExists(expression: string): ApiResponse {
    try {
      const found = this.resolve(expression);
      return { status: found.length > 0 || expression.includes('*') ? 200 : 404 };
    } catch (_error) {
      return { status: 404 };
    }
  }

  private settingsBody(index: SearchIndex): Json {
    return {
      index: {
        ...index.settings,
        creation_date: String(index.creationDate),
        uuid: index.uuid,
        version: { created: '9009000' },
        provided_name: index.name,
      },
    };
  }

  getIndex(expression: string): ApiResponse {
    const body: Json = {};
    for (const { index } of this.resolve(expression, { allowNoIndices: !expression.includes('*') ? false : true })) {
      body[index.name] = { aliases: Object.fromEntries(index.aliases), mappings: index.mapping.json, settings: this.settingsBody(index) };
    }
    return { status: 200, body };
  }

  getSettings(expression: string | undefined): ApiResponse {
    const body: Json = {};
    for (const { index } of this.resolve(expression)) body[index.name] = { settings: this.settingsBody(index) };
    return { status: 200, body };
  }

  getMapping(expression: string | undefined): ApiResponse {
    const body: Json = {};
    for (const { index } of this.resolve(expression)) body[index.name] = { mappings: index.mapping.json };
    return { status: 200, body };
  }

  putMapping(expression: string, body: unknown): ApiResponse {
    if (!isObject(body)) throw parsingError('request body is required');
    const targets = this.resolve(expression, { allowNoIndices: false });
    for (const { index } of targets) {
      index.putMapping(body);
      this.record({ op: 'put_mapping', name: index.name, mappings: body });
    }
    return { status: 200, body: { acknowledged: true } };
  }

  putSettings(expression: string | undefined, body: unknown): ApiResponse {
    if (!isObject(body)) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no settings to update;');
    const settings = isObject(body.settings) ? body.settings : body;
    const targets = this.resolve(expression);
    for (const { index } of targets) index.putSettings(settings);
    for (const { index } of targets) this.record({ op: 'put_settings', name: index.name, settings });
    return { status: 200, body: { acknowledged: true } };
  }

  refresh(expression: string | undefined): ApiResponse {
    const count = this.resolve(expression).length;
    return { status: 200, body: { _shards: { total: count * 2, successful: count, failed: 0 } } };
  }

  // ---- aliases ----

  updateAliases(body: unknown): ApiResponse {
    if (!isObject(body) || !Array.isArray(body.actions)) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no actions specified;');
    const touched = new Set<SearchIndex>();
    const removals: SearchIndex[] = [];
    // Validate every action before applying any, so the switch is atomic.
    const planned: Array<() => void> = [];
    for (const action of body.actions) {
      if (!isObject(action)) throw parsingError('[aliases] actions must be objects');
      const [type, rawSpec] = Object.entries(action)[0] ?? [];
      if (!isObject(rawSpec)) throw parsingError(`[${String(type)}] malformed alias action`);
      const spec = rawSpec;
      const indexNames = [...(Array.isArray(spec.indices) ? spec.indices.map(String) : []), ...(spec.index !== undefined ? [String(spec.index)] : [])];
      const aliasNames = [...(Array.isArray(spec.aliases) ? spec.aliases.map(String) : []), ...(spec.alias !== undefined ? [String(spec.alias)] : [])];
      if (indexNames.length === 0) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: One of [index] or [indices] is required;');
      const targets = indexNames.flatMap((name) => this.resolve(name, { allowNoIndices: false }).map((entry) => entry.index));
      if (type === 'add') {
        if (aliasNames.length === 0) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: [alias] or [aliases] is required;');
        const options: Json = {};
        for (const key of ['is_write_index', 'filter', 'routing', 'index_routing', 'search_routing', 'is_hidden']) if (spec[key] !== undefined) options[key] = spec[key];
        for (const alias of aliasNames) {
          if (this.indices.has(alias)) throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`, { index_uuid: '_na_', index: alias });
        }
        planned.push(() => {
          for (const target of targets) {
            for (const alias of aliasNames) target.aliases.set(alias, options);
            touched.add(target);
          }
        });
      } else if (type === 'remove') {
        for (const target of targets) {
          for (const alias of aliasNames) {
            const regex = wildcardRegex(alias);
            const matching = [...target.aliases.keys()].filter((name) => regex.test(name));
            if (matching.length === 0 && spec.must_exist !== false) {
              throw new EsError(404, 'aliases_not_found_exception', `aliases [${alias}] missing`, { 'resource.type': 'aliases', 'resource.id': alias });
            }
          }
        }
        planned.push(() => {
          for (const target of targets) {
            for (const alias of aliasNames) {
              const regex = wildcardRegex(alias);
              for (const name of [...target.aliases.keys()]) if (regex.test(name)) target.aliases.delete(name);
            }
            touched.add(target);
          }
        });
      } else if (type === 'remove_index') {
        planned.push(() => removals.push(...targets));
      } else {
        throw parsingError(`[aliases] unknown field [${String(type)}]`);
      }
    }
    for (const step of planned) step();
    for (const index of touched) this.record({ op: 'set_aliases', name: index.name, aliases: Object.fromEntries(index.aliases) });
    for (const index of removals) {
      this.indices.delete(index.name);
      this.record({ op: 'delete_index', name: index.name });
    }
    return { status: 200, body: { acknowledged: true, errors: false } };
  }

  putAlias(indexExpression: string, alias: string, body: unknown): ApiResponse {
    const spec = isObject(body) ? body : {};
    return this.updateAliases({ actions: [{ add: { ...spec, index: indexExpression, alias } }] });
  }

  deleteAlias(indexExpression: string, alias: string): ApiResponse {
    const targets = this.resolve(indexExpression);
    const regex = wildcardRegex(alias === '_all' ? '*' : alias);
    let removed = 0;
    for (const { index } of targets) {
      for (const name of [...index.aliases.keys()]) {
        if (alias.split(',').some((part) => wildcardRegex(part).test(name)) || regex.test(name)) {
          index.aliases.delete(name);
          removed += 1;
        }
      }
      this.record({ op: 'set_aliases', name: index.name, aliases: Object.fromEntries(index.aliases) });
    }
    if (removed === 0) throw new EsError(404, 'aliases_not_found_exception', `aliases [${alias}] missing`, { 'resource.type': 'aliases', 'resource.id': alias });
    return { status: 200, body: { acknowledged: true } };
  }

  getAliases(indexExpression: string | undefined, aliasExpression: string | undefined): ApiResponse {
    const indices = this.resolve(indexExpression).map((entry) => entry.index);
    const patterns = aliasExpression ? aliasExpression.split(',').map(wildcardRegex) : undefined;
    const body: Json = {};
    let any = false;
    for (const index of indices) {
      const aliases: Json = {};
      for (const [name, options] of index.aliases) {
        if (patterns && !patterns.some((pattern) => pattern.test(name))) continue;
        aliases[name] = options;
        any = true;
      }
      if (!patterns || Object.keys(aliases).length > 0) body[index.name] = { aliases };
    }
    if (patterns && !any) {
      return { status: 404, body: { error: `alias [${aliasExpression}] missing`, status: 404 } };
    }
    return { status: 200, body };
  }

  // ---- documents ----

  private writeResponse(index: SearchIndex, id: string, result: WriteResult, params: URLSearchParams): Json {
    const body: Json = {
      _index: index.name,
      _id: id,
      _version: result.version,
      result: result.result,
      _shards: result.result === 'noop' ? { total: 0, successful: 0, failed: 0 } : SHARDS,
      _seq_no: result.seqNo,
      _primary_term: result.primaryTerm,
    };
    if (params.get('refresh') === 'true' || params.get('refresh') === '') body.forced_refresh = true;
    return body;
  }

  indexDocument(target: string, id: string | undefined, body: unknown, params: URLSearchParams, opType?: 'index' | 'create'): ApiResponse {
    if (!isObject(body)) throw new EsError(400, 'parse_exception', 'request body is required');
    const index = this.writeTarget(target);
    const options = writeOptions(params, opType);
    if (options.opType === 'create' && options.versionType !== undefined && options.versionType !== 'internal') {
      throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: create operations only support internal versioning. use index instead;');
    }
    const docId = id ?? generateId();
    const result = index.indexDocument(docId, body, id === undefined ? { ...options, opType: 'create' } : options);
    this.record({ op: 'index', name: index.name, id: docId, source: body, version: result.version, seqNo: result.seqNo });
    return { status: result.result === 'created' ? 201 : 200, body: this.writeResponse(index, docId, result, params) };
  }

  updateDocument(target: string, id: string, body: unknown, params: URLSearchParams): ApiResponse {
    if (!isObject(body)) throw new EsError(400, 'parse_exception', 'request body is required');
    const index = this.concrete(target);
    const result = index.updateDocument(id, body, writeOptions(params));
    if (result.result !== 'noop' && result.source) this.record({ op: 'index', name: index.name, id, source: result.source, version: result.version, seqNo: result.seqNo });
    const response = this.writeResponse(index, id, result, params);
    const sourceWanted = body._source ?? (params.has('_source') ? params.get('_source') : undefined);
    if (sourceWanted !== undefined && sourceWanted !== false && sourceWanted !== 'false' && result.source) {
      const filter = parseSourceFilter(sourceWanted === true || sourceWanted === 'true' ? true : sourceWanted, new URLSearchParams());
      response.get = { _seq_no: result.seqNo, _primary_term: result.primaryTerm, found: true, _source: applySourceFilter(result.source, filter) };
    }
    return { status: result.result === 'created' ? 201 : 200, body: response };
  }

  deleteDocument(target: string, id: string, params: URLSearchParams): ApiResponse {
    const index = this.concrete(target);
    const result = index.deleteDocument(id, writeOptions(params));
    this.record({ op: 'delete', name: index.name, id, version: result.version, seqNo: result.seqNo });
    return { status: result.result === 'deleted' ? 200 : 404, body: this.writeResponse(index, id, result, params) };
  }

  private documentBody(index: SearchIndex, id: string, sourceParams: URLSearchParams, bodySource?: unknown): Json {
    const stored = index.get(id);
    if (!stored) return { _index: index.name, _id: id, found: false };
    const body: Json = { _index: index.name, _id: id, _version: stored.version, _seq_no: stored.seqNo, _primary_term: stored.primaryTerm, found: true };
    const source = applySourceFilter(stored.source, parseSourceFilter(bodySource, sourceParams));
    if (source !== undefined) body._source = source;
    return body;
  }

  getDocument(target: string, id: string, params: URLSearchParams, head = false): ApiResponse {
    const index = this.concrete(target);
    const body = this.documentBody(index, id, params);
    if (head) return { status: body.found ? 200 : 404 };
    return { status: body.found ? 200 : 404, body };
  }

  getSource(target: string, id: string, params: URLSearchParams): ApiResponse {
    const index = this.concrete(target);
    const stored = index.get(id);
    if (!stored) {
      return { status: 404, body: new EsError(404, 'resource_not_found_exception', `Document not found [${index.name}]/[${id}]`).toBody() };
    }
    return { status: 200, body: applySourceFilter(stored.source, parseSourceFilter(undefined, params)) ?? {} };
  }

  mget(target: string | undefined, body: unknown, params: URLSearchParams): ApiResponse {
    if (!isObject(body)) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no documents to get;');
    const requests: Array<{ index?: string; id: string; source?: unknown }> = [];
    if (Array.isArray(body.docs)) {
      for (const entry of body.docs) {
        if (!isObject(entry)) continue;
        requests.push({ index: (entry._index as string | undefined) ?? target, id: String(entry._id), source: entry._source });
      }
    } else if (Array.isArray(body.ids)) {
      for (const id of body.ids) requests.push({ index: target, id: String(id) });
    }
    if (requests.length === 0) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no documents to get;');
    const docs = requests.map((request) => {
      if (!request.index) return { _index: null, _id: request.id, error: new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: index is missing for doc 0;').toCause() };
      try {
        const index = this.concrete(request.index);
        return this.documentBody(index, request.id, params, request.source);
      } catch (error) {
        if (error instanceof EsError) return { _index: request.index, _id: request.id, error: error.toCause() };
        throw error;
      }
    });
    return { status: 200, body: { docs } };
  }

  bulk(target: string | undefined, text: string, params: URLSearchParams): ApiResponse {
    const started = Date.now();
    const lines = text.split('\n');
    const items: Json[] = [];
    let errors = false;
    let lineNumber = 0;
    const nextLine = (): string | undefined => {
      while (lineNumber < lines.length) {
        const line = lines[lineNumber];
        lineNumber += 1;
        if (line.trim() !== '') return line;
      }
      return undefined;
    };
    const parseLine = (line: string, number: number): unknown => {
      try {
        return JSON.parse(line);
      } catch (_error) {
        throw new EsError(400, 'x_content_parse_exception', `[${number}:1] Unexpected character in bulk line ${number}`);
      }
    };
    const actions: Array<{ action: string; meta: Json; source?: Json; line: number }> = [];
    for (;;) {
      const line = nextLine();
      if (line === undefined) break;
      const actionLine = lineNumber;
      const parsed = parseLine(line, actionLine);
      if (!isObject(parsed)) throw illegalArgument(`Malformed action/metadata line [${actionLine}], expected START_OBJECT or END_OBJECT but found [VALUE_STRING]`);
      const [action, meta] = Object.entries(parsed)[0] ?? [];
      if (!['index', 'create', 'update', 'delete'].includes(action)) {
        throw illegalArgument(`Malformed action/metadata line [${actionLine}], expected field [create], [delete], [index] or [update] but found [${String(action)}]`);
      }
      if (!isObject(meta)) throw illegalArgument(`Malformed action/metadata line [${actionLine}], expected START_OBJECT but found [${typeof meta}]`);
      let source: Json | undefined;
      if (action !== 'delete') {
        const sourceLine = nextLine();
        if (sourceLine === undefined) throw illegalArgument('The bulk request must be terminated by a newline [\\n]');
        const value = parseLine(sourceLine, lineNumber);
        if (!isObject(value)) throw new EsError(400, 'illegal_argument_exception', `Malformed content, found extra data after parsing: START_OBJECT`);
        source = value;
      }
      actions.push({ action, meta, source, line: actionLine });
    }
    if (actions.length === 0) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no requests added;');
    for (const { action, meta, source } of actions) {
      const indexName = (meta._index as string | undefined) ?? target;
      const id = meta._id === undefined || meta._id === null ? undefined : String(meta._id);
      const itemParams = new URLSearchParams(params);
      for (const key of ['version', 'version_type', 'if_seq_no', 'if_primary_term']) if (meta[key] !== undefined) itemParams.set(key, String(meta[key]));
      try {
        if (!indexName) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: index is missing;');
        let response: ApiResponse;
        if (action === 'index' || action === 'create') {
          response = this.indexDocument(indexName, id, source, itemParams, action === 'create' || meta.op_type === 'create' ? 'create' : undefined);
        } else if (action === 'update') {
          if (id === undefined) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: id is missing;');
          response = this.updateDocument(indexName, id, source, itemParams);
        } else {
          if (id === undefined) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: id is missing;');
          response = this.deleteDocument(indexName, id, itemParams);
        }
        const item: Json = { ...(response.body as Json), status: response.status };
        delete item.forced_refresh;
        if (action === 'update') delete item.get;
        items.push({ [action]: item });
      } catch (error) {
        if (!(error instanceof EsError)) throw error;
        errors = true;
        const concreteName = indexName ? (this.indices.get(indexName)?.name ?? this.aliasTargets(indexName)[0]?.name ?? indexName) : null;
        items.push({ [action]: { _index: concreteName, _id: id ?? null, status: error.status, error: error.toCause() } });
      }
    }
    return { status: 200, body: { errors, took: Date.now() - started, items } };
  }

  // ---- search ----

  private pitViews(pit: unknown): { id: string; views: IndexView[] } {
    this.expirePits();
    if (!isObject(pit) || typeof pit.id !== 'string') throw parsingError('[pit] requires [id]');
    const entry = this.pits.get(pit.id);
    if (!entry) throw new EsError(404, 'search_context_missing_exception', `No search context found for id [${pit.id}]`);
    if (pit.keep_alive !== undefined) entry.expiresAt = Date.now() + (parseDuration(pit.keep_alive) ?? 60_000);
    return { id: pit.id, views: entry.views };
  }

  private expirePits(): void {
    const now = Date.now();
    for (const [id, entry] of this.pits) if (entry.expiresAt < now) this.pits.delete(id);
  }

  search(expression: string | undefined, rawBody: unknown, params: URLSearchParams): ApiResponse {
    const body = isObject(rawBody) ? rawBody : {};
    const known = new Set([
      'query', 'from', 'size', 'sort', '_source', 'track_total_hits', 'search_after', 'pit', 'post_filter', 'min_score', 'track_scores',
      'version', 'seq_no_primary_term', 'timeout', 'aggs', 'aggregations', 'highlight', 'explain', 'stored_fields', 'docvalue_fields', 'fields', 'terminate_after', 'profile', 'runtime_mappings', 'collapse', 'indices_boost', 'rescore', 'suggest', 'ext', 'stats',
    ]);
    for (const key of Object.keys(body)) if (!known.has(key)) throw parsingError(`Unknown key for a START_OBJECT in [${key}].`);
    if (body.aggs !== undefined || body.aggregations !== undefined) throw illegalArgument('aggregations are not supported by this stand-in');
    let views: IndexView[];
    let aliasFilters: Array<unknown | undefined> | undefined;
    let pitId: string | undefined;
    if (body.pit !== undefined) {
      if (expression) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;');
      const pit = this.pitViews(body.pit);
      views = pit.views;
      pitId = pit.id;
    } else {
      const resolved = this.resolve(expression, { ignoreUnavailable: params.get('ignore_unavailable') === 'true', allowNoIndices: params.get('allow_no_indices') !== 'false' });
      views = resolved.map((entry) => entry.index.view());
      aliasFilters = resolved.map((entry) => (entry.alias ? entry.index.aliases.get(entry.alias)?.filter : undefined));
    }
    const trackRaw = params.has('track_total_hits') ? params.get('track_total_hits') : body.track_total_hits;
    let trackTotalHits: boolean | number = 10_000;
    if (trackRaw === true || trackRaw === 'true') trackTotalHits = true;
    else if (trackRaw === false || trackRaw === 'false') trackTotalHits = false;
    else if (trackRaw !== undefined && trackRaw !== null) {
      const value = Number(trackRaw);
      if (!Number.isInteger(value) || value < 0) throw illegalArgument(`[track_total_hits] parameter must be positive or equals to -1, got ${String(trackRaw)}`);
      trackTotalHits = value;
    }
    let query = body.query;
    const q = params.get('q');
    if (q !== null) {
      query = { query_string: { query: q, ...(params.get('df') ? { default_field: params.get('df') } : {}), ...(params.get('default_operator') ? { default_operator: params.get('default_operator') } : {}) } };
    }
    const size = numberParam(params, 'size') ?? (body.size === undefined ? 10 : Number(body.size));
    const from = numberParam(params, 'from') ?? (body.from === undefined ? 0 : Number(body.from));
    if (!Number.isInteger(size) || size < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${size}]`);
    if (!Number.isInteger(from) || from < -1) throw illegalArgument(`[from] parameter cannot be negative, found [${from}]`);
    const sortParam = params.get('sort');
    const response = runSearch(views, {
      query,
      postFilter: body.post_filter,
      from: Math.max(0, from),
      size,
      sort: sortParam ? sortParam.split(',') : body.sort,
      searchAfter: Array.isArray(body.search_after) ? body.search_after : undefined,
      trackTotalHits,
      trackScores: body.track_scores === true,
      minScore: body.min_score === undefined ? undefined : Number(body.min_score),
      source: parseSourceFilter(body._source, params),
      pitId,
      aliasFilters,
      version: body.version === true || params.get('version') === 'true',
      seqNoPrimaryTerm: body.seq_no_primary_term === true || params.get('seq_no_primary_term') === 'true',
    });
    return { status: 200, body: response };
  }

  count(expression: string | undefined, rawBody: unknown, params: URLSearchParams): ApiResponse {
    const body = isObject(rawBody) ? rawBody : {};
    const resolved = this.resolve(expression, { ignoreUnavailable: params.get('ignore_unavailable') === 'true' });
    let query = body.query;
    const q = params.get('q');
    if (q !== null) query = { query_string: { query: q } };
    let count = 0;
    for (const { index, alias } of resolved) {
      const view = index.view();
      const compiled = compileForView(view, query, alias ? index.aliases.get(alias)?.filter : undefined);
      count += liveDocs(view, this.execute(view, compiled)).docs.length;
    }
    return { status: 200, body: { count, _shards: { total: resolved.length, successful: resolved.length, skipped: 0, failed: 0 } } };
  }

  private execute(view: IndexView, query: ReturnType<typeof compileForView>) {
    try {
      return executeMatches(view, query, false);
    } catch (error) {
      if (error instanceof QueryShardError) throw searchPhaseFailure(error, view.index.name, view.index.uuid);
      throw error;
    }
  }

  deleteByQuery(expression: string, rawBody: unknown, params: URLSearchParams): ApiResponse {
    const started = Date.now();
    const body = isObject(rawBody) ? rawBody : {};
    if (body.query === undefined && params.get('q') === null) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;');
    const query = params.get('q') !== null ? { query_string: { query: params.get('q') } } : body.query;
    let deleted = 0;
    for (const { index } of this.resolve(expression)) {
      const view = index.view();
      const matches = liveDocs(view, this.execute(view, compileForView(view, query)));
      const ids = Array.from(matches.docs, (doc) => view.docs[doc].id);
      for (const id of ids) {
        const result = index.deleteDocument(id, {});
        this.record({ op: 'delete', name: index.name, id, version: result.version, seqNo: result.seqNo });
        deleted += 1;
      }
    }
    return {
      status: 200,
      body: {
        took: Date.now() - started,
        timed_out: false,
        total: deleted,
        deleted,
        batches: deleted > 0 ? Math.ceil(deleted / 1000) : 0,
        version_conflicts: 0,
        noops: 0,
        retries: { bulk: 0, search: 0 },
        throttled_millis: 0,
        requests_per_second: -1,
        throttled_until_millis: 0,
        failures: [],
      },
    };
  }

  openPointInTime(expression: string, params: URLSearchParams): ApiResponse {
    const keepAlive = params.get('keep_alive');
    if (!keepAlive) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: [keep_alive] is not specified;');
    const duration = parseDuration(keepAlive);
    if (duration === undefined) throw illegalArgument(`failed to parse setting [keep_alive] with value [${keepAlive}] as a time value: unit is missing or unrecognized`);
    this.expirePits();
    const resolved = this.resolve(expression, { ignoreUnavailable: params.get('ignore_unavailable') === 'true' });
    const id = randomBytes(48).toString('base64');
    this.pits.set(id, { views: resolved.map((entry) => entry.index.snapshotView()), expiresAt: Date.now() + duration });
    return { status: 200, body: { id, _shards: { total: resolved.length, successful: resolved.length, skipped: 0, failed: 0 } } };
  }

  closePointInTime(body: unknown): ApiResponse {
    if (!isObject(body) || typeof body.id !== 'string') throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: point in time id is missing;');
    this.expirePits();
    const existed = this.pits.delete(body.id);
    return { status: existed ? 200 : 404, body: { succeeded: true, num_freed: existed ? 1 : 0 } };
  }

  /** Used by tests and tools: a document's internal state. */
  documentCount(name: string): number {
    return this.concrete(name).liveCount;
  }
}

