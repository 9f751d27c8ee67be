// Stored percolator queries, indexed by the terms a matching document must contain, and the
// `percolate` query that runs the candidates against an in-memory index of the given document(s).
import { type DocSet, EMPTY } from './doc-set';
import { EsError, parsingError } from './es-error';
import { type Mapping, parseDocument } from './field-mapping';
import { SegmentSet } from './index-segment';
import { type ExecContext, type PercolatorSource, type Query, type RequiredTerms, scoreOf, termKey } from './query.model';

export class PercolatorStore implements PercolatorSource {
  private readonly queries: Array<Query | undefined> = [];
  /** Stored queries by one term of their indexed requirement set. */
  private readonly byTerm = new Map<string, number[]>();
  /** Per stored query, the other requirement sets a document must also hit. */
  private readonly otherSets: Array<Array<Set<string>> | undefined> = [];
  /** Per stored query, every requirement set (undefined when nothing is required). */
  private readonly requirements: Array<Array<Set<string>> | undefined> = [];
  private readonly always: number[] = [];

  add(doc: number, query: Query): void {
    this.queries[doc] = query;
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

  accepts(doc: number, termKeys: Set<string>): boolean {
    const required = this.requirements[doc];
    if (!required) return true;
    return required.every((set) => {
      for (const term of set) if (termKeys.has(term)) return true;
      return false;
    });
  }

  query(doc: number): Query | undefined {
    return this.queries[doc];
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `{"percolate": {"field", "document" | "documents", "name"}}` compiled against the percolator index mapping. */
export class PercolateQuery implements Query {
  private readonly memory: SegmentSet;
  private readonly termKeys = new Set<string>();
  /** Term keys of each percolated document (slot), to skip slots a stored query cannot match. */
  private readonly slotKeys: Array<Set<string>> = [];
  private readonly slotField: string;

  constructor(
    private readonly field: string,
    documents: Record<string, unknown>[],
    mapping: Mapping,
    name: string | undefined,
  ) {
    this.memory = new SegmentSet((level) => mapping.parentLevel(level));
    documents.forEach((document, slot) => this.memory.addDocument(parseDocument(mapping, document, String(slot)).root));
    for (let slot = 0; slot < documents.length; slot += 1) this.slotKeys.push(new Set());
    for (const level of this.memory.levels.values()) {
      for (const [path, index] of level.fields) {
        for (const [term, posting] of index.postings) {
          const key = termKey(path, term);
          this.termKeys.add(key);
          for (const doc of posting.docs) this.slotKeys[this.rootOf(level.path, doc)].add(key);
        }
      }
    }
    this.slotField = name ? `_percolator_document_slot_${name}` : '_percolator_document_slot';
  }

  private rootOf(levelPath: string, doc: number): number {
    let level = this.memory.levels.get(levelPath);
    let current = doc;
    while (level && level.parentPath !== undefined) {
      current = level.parents[current];
      level = this.memory.levels.get(level.parentPath);
    }
    return current;
  }

  static compile(body: Record<string, unknown>, mapping: Mapping): PercolateQuery {
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
    return new PercolateQuery(body.field, documents, mapping, typeof body.name === 'string' ? body.name : undefined);
  }

  execute(context: ExecContext): DocSet {
    if (context.level !== '') return EMPTY;
    const source = context.percolators?.(this.field);
    if (!source) return EMPTY;
    const docs: number[] = [];
    const scores: number[] = [];
    const memoryContext: ExecContext = { segments: this.memory, level: '', scoring: context.scoring, now: context.now };
    const slots = this.memory.root.maxDoc;
    for (const doc of source.candidates(this.termKeys)) {
      const query = source.query(doc);
      if (!query) continue;
      const matchedSlots: number[] = [];
      let best = 0;
      for (let slot = 0; slot < slots; slot += 1) {
        if (slots > 1 && !source.accepts(doc, this.slotKeys[slot])) continue;
        const score = scoreOf(query, memoryContext, slot);
        if (Number.isNaN(score)) continue;
        matchedSlots.push(slot);
        if (score > best) best = score;
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
