// The in-memory inverted index of one index: per nested level (root documents, or the hidden
// documents of one nested path) postings per field, Lucene-style length norms and doc values.
import { type FieldInfo, type FieldValue, type ParsedLevelDoc, isNumericType } from './field-mapping';

/** Docs (ascending) and term frequencies of one term, in growable typed arrays the GC need not scan. */
export class Posting {
  private docBuffer = new Int32Array(2);
  private freqBuffer = new Int32Array(2);
  private count = 0;

  /** `id`: term number within the field (positions in `FieldIndex.forward` refer to it). */
  constructor(readonly id: number) {}

  get docFreq(): number {
    return this.count;
  }

  /** Read-only views of the first `docFreq` entries. */
  get docs(): Int32Array {
    return this.docBuffer.subarray(0, this.count);
  }

  get freqs(): Int32Array {
    return this.freqBuffer.subarray(0, this.count);
  }

  add(doc: number): void {
    const last = this.count - 1;
    if (last >= 0 && this.docBuffer[last] === doc) {
      this.freqBuffer[last] += 1;
      return;
    }
    if (this.count === this.docBuffer.length) {
      const docs = new Int32Array(this.count * 2);
      docs.set(this.docBuffer);
      this.docBuffer = docs;
      const freqs = new Int32Array(this.count * 2);
      freqs.set(this.freqBuffer);
      this.freqBuffer = freqs;
    }
    this.docBuffer[this.count] = doc;
    this.freqBuffer[this.count] = 1;
    this.count += 1;
  }
}

/** Separates the values of a multi-valued text field in the forward index; phrases never span it. */
export const VALUE_GAP = 0xffffffff;

const K1 = 1.2;
const B = 0.75;

function grow(array: Uint32Array<ArrayBuffer>, size: number): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(size);
  grown.set(array);
  return grown;
}

// Lucene's SmallFloat.intToByte4/byte4ToInt: field lengths are stored lossily in one byte.
function longToInt4(value: number): number {
  const bits = 32 - Math.clz32(value);
  if (bits < 4) return value;
  const shift = bits - 4;
  return ((value >>> shift) & 0x07) | ((shift + 1) << 3);
}
function int4ToLong(value: number): number {
  const bits = value & 0x07;
  const shift = (value >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}
const MAX_INT4 = longToInt4(0x7fffffff);
const NUM_FREE_VALUES = 255 - MAX_INT4;

export function quantizeLength(length: number): number {
  if (length < NUM_FREE_VALUES) return length;
  const encoded = NUM_FREE_VALUES + longToInt4(length - NUM_FREE_VALUES);
  return Math.min(NUM_FREE_VALUES + int4ToLong(encoded - NUM_FREE_VALUES), 0x7fffffff);
}

export function bm25Idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

export class FieldIndex {
  readonly postings = new Map<string, Posting>();
  /** Quantised token count per doc (text fields); 0 for docs without the field. */
  lengths = new Uint32Array(0);
  /** Values per doc, for sorting, ranges, exists, phrase checks and function scores. */
  readonly values: Array<FieldValue[] | undefined> = [];
  readonly docsWithField: number[] = [];
  /**
   * Text fields: each doc's term ids by position, packed in one growable array (doc d occupies
   * `forwardStart[d]` .. `forwardStart[d] + forwardLength[d]`), for phrases without re-analysis.
   */
  private forwardData = new Uint32Array(0);
  private forwardUsed = 0;
  private forwardStart = new Uint32Array(0);
  private forwardLength = new Uint32Array(0);
  sumTotalTermFreq = 0;

  constructor(public info: FieldInfo) {}

  get docCount(): number {
    return this.docsWithField.length;
  }

  get averageLength(): number {
    return this.docCount === 0 ? 1 : this.sumTotalTermFreq / this.docCount;
  }

  get norms(): boolean {
    return this.info.type === 'text' || this.info.type === 'match_only_text';
  }

  add(doc: number, values: FieldValue[]): void {
    this.values[doc] = values;
    this.docsWithField.push(doc);
    if (!this.info.indexed && this.info.type !== 'percolator') return;
    let length = 0;
    if (this.norms) {
      const start = this.forwardUsed;
      for (let value = 0; value < values.length; value += 1) {
        const tokens = this.info.analyzer.analyze(String(values[value]));
        this.reserveForward(tokens.length + 1);
        if (value > 0) this.forwardData[this.forwardUsed++] = VALUE_GAP;
        length += tokens.length;
        for (const token of tokens) this.forwardData[this.forwardUsed++] = this.addTerm(token, doc);
      }
      if (doc >= this.lengths.length) {
        const size = Math.max(doc + 1, this.lengths.length * 2);
        this.lengths = grow(this.lengths, size);
        this.forwardStart = grow(this.forwardStart, size);
        this.forwardLength = grow(this.forwardLength, size);
      }
      this.lengths[doc] = quantizeLength(length);
      this.forwardStart[doc] = start;
      this.forwardLength[doc] = this.forwardUsed - start;
    } else {
      for (const value of values) {
        if (typeof value === 'object') continue;
        if (this.info.type === 'keyword' && typeof value === 'string' && value.length > this.info.ignoreAbove) continue;
        this.addTerm(termOf(this.info, value), doc);
        length += 1;
      }
      if (typeof values[0] === 'number') this.addNumber(doc, values);
    }
    this.sumTotalTermFreq += length;
  }

  /** Term ids of one doc by position (VALUE_GAP between values); undefined for docs without the field. */
  forwardOf(doc: number): Uint32Array | undefined {
    if (doc >= this.forwardLength.length || this.values[doc] === undefined) return undefined;
    const start = this.forwardStart[doc];
    return this.forwardData.subarray(start, start + this.forwardLength[doc]);
  }

  private reserveForward(extra: number): void {
    if (this.forwardUsed + extra <= this.forwardData.length) return;
    this.forwardData = grow(this.forwardData, Math.max(this.forwardUsed + extra, this.forwardData.length * 2));
  }

  // Postings are appended in doc order, so a repeated term of the same doc only bumps its freq.
  private addTerm(term: string, doc: number): number {
    let posting = this.postings.get(term);
    if (!posting) {
      posting = new Posting(this.postings.size);
      this.postings.set(term, posting);
    }
    posting.add(doc);
    return posting.id;
  }

  /** First numeric value per doc (NaN when absent), for fast range scans; `multiValued` when any doc has more. */
  numbers = new Float64Array(0);
  multiValued = false;

  private addNumber(doc: number, values: FieldValue[]): void {
    if (doc >= this.numbers.length) {
      const grown = new Float64Array(Math.max(doc + 1, 64, this.numbers.length * 2)).fill(Number.NaN);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    this.numbers[doc] = values[0] as number;
    if (values.length > 1) this.multiValued = true;
  }

  /** BM25 term weight for one doc, as Lucene's BM25Similarity (k1 1.2, b 0.75). */
  tf(freq: number, doc: number): number {
    const length = this.norms ? this.lengths[doc] : 1;
    return freq / (freq + K1 * (1 - B + (B * length) / this.averageLength));
  }
}

/** The term a value is indexed under (numbers and dates canonicalised, booleans as true/false). */
export function termOf(info: FieldInfo, value: FieldValue): string {
  if (typeof value === 'number') return isNumericType(info.type) || info.type === 'date' ? String(value) : String(value);
  return String(value);
}

/** All hidden documents of one nested level (or the root documents). */
export class LevelSegment {
  maxDoc = 0;
  /** For nested levels: the doc id of each doc's parent in the parent level. */
  readonly parents: number[] = [];
  readonly fields = new Map<string, FieldIndex>();

  constructor(
    readonly path: string,
    readonly parentPath: string | undefined,
  ) {}

  field(info: FieldInfo): FieldIndex {
    let index = this.fields.get(info.path);
    if (!index || index.info !== info) {
      if (!index) {
        index = new FieldIndex(info);
        this.fields.set(info.path, index);
      } else if (index.info.type !== info.type) {
        index = new FieldIndex(info);
        this.fields.set(info.path, index);
      } else {
        index.info = info;
      }
    }
    return index;
  }

  addDoc(values: Array<[FieldInfo, FieldValue]>, parent: number): number {
    const doc = this.maxDoc;
    this.maxDoc += 1;
    if (this.parentPath !== undefined) this.parents.push(parent);
    const grouped = new Map<FieldInfo, FieldValue[]>();
    for (const [info, value] of values) {
      const list = grouped.get(info);
      if (list) list.push(value);
      else grouped.set(info, [value]);
    }
    for (const [info, list] of grouped) this.field(info).add(doc, list);
    return doc;
  }
}

/** The levels of one index: root documents plus one segment per nested path. */
export class SegmentSet {
  readonly levels = new Map<string, LevelSegment>();

  constructor(parentOf: (level: string) => string) {
    this.parentOf = parentOf;
    this.levels.set('', new LevelSegment('', undefined));
  }

  private readonly parentOf: (level: string) => string;

  get root(): LevelSegment {
    return this.levels.get('') as LevelSegment;
  }

  level(path: string): LevelSegment {
    let segment = this.levels.get(path);
    if (!segment) {
      segment = new LevelSegment(path, this.parentOf(path));
      // A nested level created late still needs parent pointers for its docs only, which start now.
      this.levels.set(path, segment);
    }
    return segment;
  }

  /** Indexes one parsed document; returns its root doc id. */
  addDocument(root: ParsedLevelDoc): number {
    const rootDoc = this.root.addDoc(root.values, -1);
    this.addChildren(root, rootDoc);
    return rootDoc;
  }

  private addChildren(parsed: ParsedLevelDoc, parentDoc: number): void {
    for (const child of parsed.children) {
      const doc = this.level(child.path).addDoc(child.doc.values, parentDoc);
      this.addChildren(child.doc, doc);
    }
  }
}
