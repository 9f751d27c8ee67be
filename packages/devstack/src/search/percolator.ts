// Stored percolator queries, indexed by the terms a matching document must contain, and the
// `percolate` query that runs the candidates against an in-memory index of the given document(s).
import { type DocSet, EMPTY } from './doc-set';
import { EsError, parsingError } from './es-error';
import { type FieldInfo, type Mapping, parseDocument } from './field-mapping';
import { type LevelSegment, SegmentSet } from './index-segment';
import { type ExecContext, type PercolatorSource, type Query, type RequiredTerms, scoreOf, termKey } from './query.model';

/**
 * The mapping's field table that remembers which fields a query compiler looked up. Enumerating
 * the table (wildcard or object-path fields, `query_string` defaults) makes the set undetermined.
 */
class FieldUseRecorder extends Map<string, FieldInfo> {
  readonly used = new Set<string>();
  enumerated = false;

  override get(path: string): FieldInfo | undefined {
    this.used.add(path);
    return super.get(path);
  }

  override has(path: string): boolean {
    this.used.add(path);
    return super.has(path);
  }

  override values(): MapIterator<FieldInfo> {
    this.enumerated = true;
    return super.values();
  }

  override keys(): MapIterator<string> {
    this.enumerated = true;
    return super.keys();
  }

  override entries(): MapIterator<[string, FieldInfo]> {
    this.enumerated = true;
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[string, FieldInfo]> {
    this.enumerated = true;
    return super.entries();
  }

  override forEach(callback: (value: FieldInfo, key: string, map: Map<string, FieldInfo>) => void, thisArg?: unknown): void {
    this.enumerated = true;
    super.forEach(callback, thisArg);
  }
}

/**
 * Compiles a stored percolator query and returns the field paths it can read, or null when they
 * cannot be determined (the percolated documents must then be indexed in full).
 */
export function compileRecordingFields<T>(mapping: Mapping, compile: (mapping: Mapping) => T): { query: T; fields: Set<string> | null } {
  const recorder = new FieldUseRecorder(mapping.fields);
  const recording = Object.create(mapping, { fields: { value: recorder } }) as Mapping;
  const query = compile(recording);
  return { query, fields: recorder.enumerated ? null : recorder.used };
}

export class PercolatorStore implements PercolatorSource {
  private readonly queries: Array<Query | undefined> = [];
  /** Field paths any stored query reads (null: some query's fields are unknown, so all are needed). */
  private referenced: Set<string> | null = new Set();
  /** Bumped whenever `referenced` grows, so a percolation built for an older set can tell. */
  private fieldsVersion = 0;
  /** Stored queries by one term of their indexed requirement set. */
  private readonly byTerm = new Map<string, number[]>();
  /** Per stored query, the other requirement sets a document must also hit. */
  private readonly otherSets: Array<Array<Set<string>> | undefined> = [];
  /** Per stored query, every requirement set (undefined when nothing is required). */
  private readonly requirements: Array<Array<Set<string>> | undefined> = [];
  private readonly always: number[] = [];

  /** `fields`: the paths the query reads (from compileRecordingFields), null or omitted when unknown. */
  add(doc: number, query: Query, fields: ReadonlySet<string> | null = null): void {
    this.queries[doc] = query;
    this.noteFields(fields);
    const required = query.requiredTerms();
    if (required === null || required.length === 0) {
      this.always.push(doc);
      return;
    }
    // Index by the smallest set (fewest candidates to look up); check the rest per document.
    this.requirements[doc] = required;
    const indexed = required.reduce((best, set) => (set.size < best.size ? set : best));
    this.otherSets[doc] = required.filter((set) => set !== indexed);
    for (const term of indexed) {
      const docs = this.byTerm.get(term);
      if (docs) docs.push(doc);
      else this.byTerm.set(term, [doc]);
    }
  }

  private noteFields(fields: ReadonlySet<string> | null): void {
    if (this.referenced === null) return;
    if (fields === null) {
      this.referenced = null;
      this.fieldsVersion += 1;
      return;
    }
    const before = this.referenced.size;
    for (const path of fields) this.referenced.add(path);
    if (this.referenced.size !== before) this.fieldsVersion += 1;
  }

  /** The field paths percolated documents need indexed (null: all), with the version of that set. */
  fieldsInUse(): { fields: ReadonlySet<string> | null; version: number } {
    return { fields: this.referenced, version: this.fieldsVersion };
  }

  candidates(termKeys: Set<string>): number[] {
    const found = new Set<number>(this.always);
    const hits = (set: Set<string>) => {
      for (const term of set) if (termKeys.has(term)) return true;
      return false;
    };
    for (const key of termKeys) {
      const docs = this.byTerm.get(key);
      if (!docs) continue;
      for (const doc of docs) {
        if (found.has(doc)) continue;
        const others = this.otherSets[doc];
        if (others && !others.every(hits)) continue;
        found.add(doc);
      }
    }
    return [...found].sort((x, y) => x - y);
  }

  requirementsOf(doc: number): ReadonlyArray<ReadonlySet<string>> | undefined {
    return this.requirements[doc];
  }

  query(doc: number): Query | undefined {
    return this.queries[doc];
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The in-memory index of the percolated documents, with the term keys of all and the slots of each. */
interface MemoryIndex {
  readonly segments: SegmentSet;
  readonly termKeys: Set<string>;
  /** Per term key, a bit set (32 slots a word) of the percolated documents holding it. */
  readonly termSlots: Map<string, Uint32Array>;
  /** What it was built for: the store and its field-set version (undefined store: every field). */
  readonly store: PercolatorSource | undefined;
  readonly fieldsVersion: number;
}

function buildMemoryIndex(documents: Record<string, unknown>[], mapping: Mapping, store: PercolatorSource | undefined): MemoryIndex {
  const inUse = store?.fieldsInUse?.();
  // Only the fields stored queries read are indexed: the others cannot change any stored query's
  // result, and a field's postings, norms and statistics do not depend on other fields.
  const indexed = store === undefined ? undefined : inUse ? (inUse.fields ?? undefined) : undefined;
  const segments = new SegmentSet((level) => mapping.parentLevel(level));
  documents.forEach((document, slot) => segments.addDocument(parseDocument(mapping, document, String(slot), indexed).root));
  const words = Math.ceil(documents.length / 32);
  const termSlots = new Map<string, Uint32Array>();
  const roots = new Map<string, ArrayLike<number>>();
  for (const level of segments.levels.values()) {
    const rootOf = rootsOf(segments, level.path, roots);
    for (const [path, index] of level.fields) {
      for (const [term, posting] of index.postings) {
        const key = termKey(path, term);
        let slots = termSlots.get(key);
        if (!slots) {
          slots = new Uint32Array(words);
          termSlots.set(key, slots);
        }
        for (const doc of posting.docs) {
          const slot = rootOf[doc];
          slots[slot >>> 5] |= 1 << (slot & 31);
        }
      }
    }
  }
  return { segments, termKeys: new Set(termSlots.keys()), termSlots, store: indexed ? store : undefined, fieldsVersion: inUse?.version ?? 0 };
}

/** The root document (slot) of each document of a level. */
function rootsOf(segments: SegmentSet, levelPath: string, memo: Map<string, ArrayLike<number>>): ArrayLike<number> {
  const known = memo.get(levelPath);
  if (known) return known;
  const level = segments.levels.get(levelPath) as LevelSegment;
  let roots: ArrayLike<number>;
  if (level.parentPath === undefined) {
    roots = Int32Array.from({ length: level.maxDoc }, (_, doc) => doc);
  } else {
    const parentRoots = rootsOf(segments, level.parentPath, memo);
    roots = Int32Array.from(level.parents, (parent) => parentRoots[parent]);
  }
  memo.set(levelPath, roots);
  return roots;
}

/** The slots holding at least one term of every requirement set (every slot when nothing is required). */
function acceptedSlots(memory: MemoryIndex, required: ReadonlyArray<ReadonlySet<string>> | undefined, slotCount: number): Uint32Array {
  const words = Math.ceil(slotCount / 32);
  const accepted = new Uint32Array(words);
  if (!required) {
    accepted.fill(0xffffffff);
    if (slotCount % 32 !== 0) accepted[words - 1] = (2 ** (slotCount % 32) - 1) >>> 0;
    return accepted;
  }
  const any = new Uint32Array(words);
  required.forEach((set, position) => {
    any.fill(0);
    for (const term of set) {
      const slots = memory.termSlots.get(term);
      if (!slots) continue;
      for (let word = 0; word < words; word += 1) any[word] |= slots[word];
    }
    if (position === 0) accepted.set(any);
    else for (let word = 0; word < words; word += 1) accepted[word] &= any[word];
  });
  return accepted;
}

/** `{"percolate": {"field", "document" | "documents", "name"}}` compiled against the percolator index mapping. */
export class PercolateQuery implements Query {
  private memory: MemoryIndex;
  private readonly slotField: string;

  /** `storeOf`: the index's stored queries of a percolator field, whose field set limits what is indexed. */
  constructor(
    private readonly field: string,
    private readonly documents: Record<string, unknown>[],
    private readonly mapping: Mapping,
    name: string | undefined,
    storeOf?: (field: string) => PercolatorSource | undefined,
  ) {
    // Built here, not lazily, so a malformed document fails the request before any shard runs.
    this.memory = buildMemoryIndex(documents, mapping, storeOf?.(field));
    this.slotField = name ? `_percolator_document_slot_${name}` : '_percolator_document_slot';
  }

  /** The index built at compile time, or a full one when the stored queries changed since. */
  private memoryFor(source: PercolatorSource): MemoryIndex {
    const built = this.memory;
    if (built.store === undefined) return built;
    if (built.store === source && source.fieldsInUse?.().version === built.fieldsVersion) return built;
    this.memory = buildMemoryIndex(this.documents, this.mapping, undefined);
    return this.memory;
  }

  static compile(body: Record<string, unknown>, mapping: Mapping, storeOf?: (field: string) => PercolatorSource | undefined): PercolateQuery {
    if (typeof body.field !== 'string') throw parsingError('[percolate] query is missing required [field] parameter');
    const field = mapping.fields.get(body.field);
    if (!field) throw new EsError(400, 'query_shard_exception', `field [${body.field}] does not exist`);
    if (field.type !== 'percolator') throw new EsError(400, 'query_shard_exception', `expected field [${body.field}] to be of type [percolator], but is of type [${field.type}]`);
    let documents: Record<string, unknown>[];
    if (body.document !== undefined) {
      if (!isObject(body.document)) throw parsingError('[percolate] query malformed, [document] must be an object');
      documents = [body.document];
    } else if (Array.isArray(body.documents)) {
      documents = body.documents.filter(isObject);
    } else if (body.id !== undefined) {
      throw parsingError('[percolate] percolating an indexed document by [id] is not supported by this stand-in');
    } else {
      throw new EsError(400, 'illegal_argument_exception', '[document], [documents] or [id] must be specified');
    }
    return new PercolateQuery(body.field, documents, mapping, typeof body.name === 'string' ? body.name : undefined, storeOf);
  }

  execute(context: ExecContext): DocSet {
    if (context.level !== '') return EMPTY;
    const source = context.percolators?.(this.field);
    if (!source) return EMPTY;
    const memory = this.memoryFor(source);
    const docs: number[] = [];
    const scores: number[] = [];
    const memoryContext: ExecContext = { segments: memory.segments, level: '', scoring: context.scoring, now: context.now };
    const slots = memory.segments.root.maxDoc;
    for (const doc of source.candidates(memory.termKeys)) {
      const query = source.query(doc);
      if (!query) continue;
      const matchedSlots: number[] = [];
      let best = 0;
      const accepted = acceptedSlots(memory, source.requirementsOf(doc), slots);
      for (let word = 0; word < accepted.length; word += 1) {
        for (let bits = accepted[word]; bits !== 0; bits &= bits - 1) {
          const slot = word * 32 + (31 - Math.clz32(bits & -bits));
          const score = scoreOf(query, memoryContext, slot);
          if (Number.isNaN(score)) continue;
          matchedSlots.push(slot);
          if (score > best) best = score;
        }
      }
      if (matchedSlots.length === 0) continue;
      docs.push(doc);
      scores.push(context.scoring ? best : 0);
      if (context.hitFields) {
        const fields = context.hitFields.get(doc) ?? {};
        fields[this.slotField] = matchedSlots;
        context.hitFields.set(doc, fields);
      }
    }
    return { docs: Int32Array.from(docs), scores: Float64Array.from(scores) };
  }

  requiredTerms(): RequiredTerms {
    return null;
  }
}
