// function_score: field_value_factor, weight and exp/gauss/linear decay functions over numeric and
// date doc values, combined with score_mode / boost_mode like Elasticsearch.
import { type DocSet, EMPTY, intersect } from './doc-set';
import { type FieldInfo } from './field-mapping';
import { type ExecContext, type Query, type RequiredTerms } from './query.model';
import { QueryShardError } from './es-error';

export interface ScoreFunction {
  filter?: Query;
  weight?: number;
  /** Value of the function for a doc (before weight). */
  evaluate?: (context: ExecContext, doc: number) => number;
}

export type ScoreMode = 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
export type BoostMode = 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';

function docValues(context: ExecContext, field: FieldInfo, doc: number): number[] {
  if (field.level !== context.level) return [];
  const values = context.segments.levels.get(context.level)?.fields.get(field.path)?.values[doc];
  return (values ?? []).filter((value): value is number => typeof value === 'number');
}

const MODIFIERS: Record<string, (value: number) => number> = {
  none: (value) => value,
  log: (value) => Math.log10(value),
  log1p: (value) => Math.log10(value + 1),
  log2p: (value) => Math.log10(value + 2),
  ln: (value) => Math.log(value),
  ln1p: (value) => Math.log1p(value),
  ln2p: (value) => Math.log(value + 2),
  square: (value) => value * value,
  sqrt: (value) => Math.sqrt(value),
  reciprocal: (value) => 1 / value,
};

export function fieldValueFactor(field: FieldInfo | undefined, fieldName: string, factor: number, modifier: string, missing: number | undefined): ScoreFunction['evaluate'] {
  const apply = MODIFIERS[modifier];
  if (!apply) throw new QueryShardError(`Illegal modifier: ${modifier}`);
  return (context, doc) => {
    const values = field ? docValues(context, field, doc) : [];
    let value = values.length ? values[0] : missing;
    if (value === undefined) throw new QueryShardError(`Missing value for field [${fieldName}]`, undefined, 'exception');
    value = apply(value * factor);
    if (!Number.isFinite(value)) {
      throw new QueryShardError(`field value function must not produce negative, infinite or NaN values`, undefined, 'illegal_argument_exception');
    }
    return value;
  };
}

export type DecayKind = 'gauss' | 'exp' | 'linear';

export function decayFunction(kind: DecayKind, field: FieldInfo, origin: number, scale: number, offset: number, decay: number, multiValueMode: string): ScoreFunction['evaluate'] {
  const compute = (distance: number): number => {
    const d = Math.max(0, distance - offset);
    if (kind === 'gauss') {
      const sigmaSquared = (-scale * scale) / (2 * Math.log(decay));
      return Math.exp((-d * d) / (2 * sigmaSquared));
    }
    if (kind === 'exp') return Math.exp((Math.log(decay) / scale) * d);
    const s = scale / (1 - decay);
    return Math.max(0, (s - d) / s);
  };
  return (context, doc) => {
    const values = docValues(context, field, doc);
    if (values.length === 0) return 1;
    const distances = values.map((value) => Math.abs(value - origin));
    if (multiValueMode === 'avg') return distances.reduce((sum, value) => sum + compute(value), 0) / distances.length;
    if (multiValueMode === 'sum') return distances.reduce((sum, value) => sum + compute(value), 0);
    // `min` (the default) scores the closest value, `max` the farthest.
    return compute(multiValueMode === 'max' ? Math.max(...distances) : Math.min(...distances));
  };
}

export class FunctionScoreQuery implements Query {
  constructor(
    private readonly inner: Query,
    private readonly functions: ScoreFunction[],
    private readonly scoreMode: ScoreMode,
    private readonly boostMode: BoostMode,
    private readonly maxBoost: number,
    private readonly minScore: number | undefined,
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const matched = this.inner.execute(context);
    if (matched.docs.length === 0) return EMPTY;
    if (!context.scoring && this.minScore === undefined) return matched;
    const filters = this.functions.map((fn) => (fn.filter ? intersect(matched, fn.filter.execute({ ...context, scoring: false }), false) : undefined));
    const filterSets = filters.map((set) => (set ? new Set(set.docs) : undefined));
    const docs: number[] = [];
    const scores: number[] = [];
    for (let index = 0; index < matched.docs.length; index += 1) {
      const doc = matched.docs[index];
      const queryScore = matched.scores[index];
      const values: number[] = [];
      let weights = 0;
      for (let position = 0; position < this.functions.length; position += 1) {
        const fn = this.functions[position];
        const filter = filterSets[position];
        if (filter && !filter.has(doc)) continue;
        const weight = fn.weight ?? 1;
        const value = fn.evaluate ? fn.evaluate(context, doc) * weight : weight;
        values.push(value);
        weights += weight;
        if (this.scoreMode === 'first') break;
      }
      let functionScore = 1;
      if (values.length > 0) {
        switch (this.scoreMode) {
          case 'sum':
            functionScore = values.reduce((sum, value) => sum + value, 0);
            break;
          case 'avg':
            functionScore = values.reduce((sum, value) => sum + value, 0) / (weights || 1);
            break;
          case 'max':
            functionScore = Math.max(...values);
            break;
          case 'min':
            functionScore = Math.min(...values);
            break;
          case 'first':
            functionScore = values[0];
            break;
          default:
            functionScore = values.reduce((product, value) => product * value, 1);
        }
      }
      functionScore = Math.min(functionScore, this.maxBoost);
      let score: number;
      switch (this.boostMode) {
        case 'replace':
          score = functionScore;
          break;
        case 'sum':
          score = queryScore + functionScore;
          break;
        case 'avg':
          score = (queryScore + functionScore) / 2;
          break;
        case 'max':
          score = Math.max(queryScore, functionScore);
          break;
        case 'min':
          score = Math.min(queryScore, functionScore);
          break;
        default:
          score = queryScore * functionScore;
      }
      score = Math.fround(score * this.boost);
      if (this.minScore !== undefined && score < this.minScore) continue;
      docs.push(doc);
      scores.push(context.scoring ? score : 0);
    }
    return { docs: Int32Array.from(docs), scores: Float64Array.from(scores) };
  }

  requiredTerms(): RequiredTerms {
    return this.inner.requiredTerms();
  }
}
