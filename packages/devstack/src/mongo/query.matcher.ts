// Compiles a MongoDB query filter into a predicate with MongoDB's semantics (implicit array
// traversal, type bracketing for comparisons, null matching missing fields) and MongoDB's errors
// for unknown or malformed operators. `$expr` is evaluated by mingo.
import { Query } from 'mingo';
import { type BSONRegExp } from 'bson';
import { compareValues, isPlainObject, toNumber, typeBracket, TypeBracket, valuesEqual, type Document } from './bson-value.order';
import { pathValues } from './document.path';
import { badValue, ErrorCodes, MongoCommandError } from './mongo-command.error';

export type Predicate = (document: Document) => boolean;
type ValueTest = (value: unknown) => boolean;

const topLevelHint = " If you have a field name that starts with a '$' symbol, consider using $getField or $setField.";

/** True when an object is an operator expression ({$gt: 1}) rather than a literal sub-document. */
export function isOperatorObject(value: unknown): value is Document {
  if (!isPlainObject(value)) return false;
  const first = Object.keys(value)[0];
  return first !== undefined && first.startsWith('$');
}

export function isRegex(value: unknown): value is RegExp | BSONRegExp {
  return value instanceof RegExp || (typeof value === 'object' && value !== null && (value as { _bsontype?: string })._bsontype === 'BSONRegExp');
}

export function toRegExp(pattern: unknown, options = ''): RegExp {
  let source: string;
  let flags = options;
  if (pattern instanceof RegExp) {
    source = pattern.source;
    flags = options || pattern.flags;
  } else if (isRegex(pattern)) {
    source = (pattern as BSONRegExp).pattern;
    flags = options || (pattern as BSONRegExp).options;
  } else if (typeof pattern === 'string') {
    source = pattern;
  } else {
    throw badValue('$regex has to be a string');
  }
  let jsFlags = '';
  for (const flag of flags) {
    if (flag === 'i' || flag === 'm' || flag === 's') {
      if (!jsFlags.includes(flag)) jsFlags += flag;
    } else if (flag === 'x') {
      // Extended mode: drop whitespace and #-comments (escaped \# and whitespace are kept).
      source = source.replace(/\\[\s#]|#[^\n]*|\s+/g, (match) => (match.startsWith('\\') ? match : ''));
    } else if (flag !== 'u' && flag !== 'g') {
      throw new MongoCommandError(51108, `invalid flag in regex options: ${flag}`);
    }
  }
  try {
    return new RegExp(source, jsFlags);
  } catch (error) {
    throw new MongoCommandError(51091, `Regular expression is invalid: ${(error as Error).message}`);
  }
}

/** Tests the value and, when it is an array, each of its elements. */
function anyValueOrElement(values: unknown[], test: ValueTest): boolean {
  for (const value of values) {
    if (test(value)) return true;
    if (Array.isArray(value)) {
      for (const element of value) if (test(element)) return true;
    }
  }
  return false;
}

function equalsTest(expected: unknown): ValueTest {
  if (isRegex(expected)) {
    const regex = toRegExp(expected);
    return (value) => (typeof value === 'string' && regex.test(value)) || (isRegex(value) && valuesEqual(value, expected));
  }
  if (expected === null) return (value) => value === null || value === undefined;
  return (value) => valuesEqual(value, expected);
}

function comparisonTest(operator: string, expected: unknown): ValueTest {
  const bracket = typeBracket(expected);
  const accepts = (order: number): boolean => {
    switch (operator) {
      case '$gt':
        return order > 0;
      case '$gte':
        return order >= 0;
      case '$lt':
        return order < 0;
      default:
        return order <= 0;
    }
  };
  if (bracket === TypeBracket.MinKey || bracket === TypeBracket.MaxKey) {
    return (value) => accepts(compareValues(value, expected));
  }
  const inclusive = operator === '$gte' || operator === '$lte';
  return (value) => {
    if (expected === null) return inclusive && (value === null || value === undefined);
    if (typeBracket(value) !== bracket) return false;
    if (bracket === TypeBracket.Number && (Number.isNaN(toNumber(value)) || Number.isNaN(toNumber(expected)))) {
      return inclusive && Number.isNaN(toNumber(value)) && Number.isNaN(toNumber(expected));
    }
    return accepts(compareValues(value, expected));
  };
}

const typeAliases: Record<string, number[]> = {
  double: [1],
  string: [2],
  object: [3],
  array: [4],
  binData: [5],
  undefined: [6],
  objectId: [7],
  bool: [8],
  date: [9],
  null: [10],
  regex: [11],
  dbPointer: [12],
  javascript: [13],
  symbol: [14],
  int: [16],
  timestamp: [17],
  long: [18],
  decimal: [19],
  minKey: [-1],
  maxKey: [127],
  number: [1, 16, 18, 19],
};

function bsonTypeNumber(value: unknown): number {
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && Math.abs(value) <= 0x7fffffff && !Object.is(value, -0) ? 16 : 1;
    case 'string':
      return 2;
    case 'boolean':
      return 8;
    case 'undefined':
      return 6;
    case 'bigint':
      return 18;
    default:
      break;
  }
  if (value === null) return 10;
  if (Array.isArray(value)) return 4;
  if (value instanceof Date) return 9;
  if (value instanceof RegExp) return 11;
  switch ((value as { _bsontype?: string })._bsontype) {
    case undefined:
      return 3;
    case 'Long':
      return 18;
    case 'Int32':
      return 16;
    case 'Double':
      return 1;
    case 'Decimal128':
      return 19;
    case 'Binary':
      return 5;
    case 'ObjectId':
      return 7;
    case 'Timestamp':
      return 17;
    case 'BSONRegExp':
      return 11;
    case 'BSONSymbol':
      return 14;
    case 'Code':
      return 13;
    case 'MinKey':
      return -1;
    case 'MaxKey':
      return 127;
    default:
      return 3;
  }
}

function typeTest(spec: unknown): ValueTest {
  const specs = Array.isArray(spec) ? spec : [spec];
  const wanted = new Set<number>();
  for (const entry of specs) {
    if (typeof entry === 'string') {
      const codes = typeAliases[entry];
      if (!codes) throw badValue(`Unknown type name alias: ${entry}`);
      codes.forEach((code) => wanted.add(code));
    } else if (typeBracket(entry) === TypeBracket.Number) {
      wanted.add(toNumber(entry));
    } else {
      throw new MongoCommandError(ErrorCodes.TypeMismatch, 'type must be represented as a number or a string');
    }
  }
  return (value) => value !== undefined && wanted.has(bsonTypeNumber(value));
}

function requireArray(operator: string, argument: unknown): unknown[] {
  if (!Array.isArray(argument)) throw badValue(`${operator} needs an array`);
  return argument;
}

function compileElemMatch(argument: unknown): ValueTest {
  if (!isPlainObject(argument)) throw badValue('$elemMatch needs an Object');
  const keys = Object.keys(argument);
  const isValueQuery = keys.length > 0 && keys.every((key) => key.startsWith('$') && !['$and', '$or', '$nor', '$expr', '$where'].includes(key));
  if (isValueQuery) {
    const test = compileFieldOperators(argument);
    return (element) => test([element]);
  }
  const predicate = compileFilter(argument);
  return (element) => isPlainObject(element) && predicate(element);
}

/** A test over all the values a path reaches, for one field's operator object. */
export function compileFieldOperators(operators: Document): (values: unknown[]) => boolean {
  const tests: ((values: unknown[]) => boolean)[] = [];
  const regexOptions = operators.$options;
  if (regexOptions !== undefined && operators.$regex === undefined) throw badValue('$options needs a $regex');
  for (const [operator, argument] of Object.entries(operators)) {
    switch (operator) {
      case '$eq': {
        const test = equalsTest(argument);
        const wholeArray = Array.isArray(argument);
        tests.push((values) => anyValueOrElement(values, test) || (wholeArray && values.some((value) => valuesEqual(value, argument))));
        break;
      }
      case '$ne': {
        const test = equalsTest(argument);
        tests.push((values) => !anyValueOrElement(values, test));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        if (isRegex(argument)) throw badValue(`Can't have RegEx as arg to predicate over field`);
        const test = comparisonTest(operator, argument);
        tests.push((values) => anyValueOrElement(values, test));
        break;
      }
      case '$in':
      case '$nin': {
        const list = requireArray(operator, argument);
        for (const candidate of list) if (isOperatorObject(candidate)) throw badValue('cannot nest $ under $in');
        // String candidates (ids, keys: the usual long lists) are one set lookup: a string equals
        // only the same string. Other values, regexes included, are tested one by one.
        const strings = new Set(list.filter((candidate): candidate is string => typeof candidate === 'string'));
        const stringTests = list.filter((candidate) => typeof candidate === 'string').map(equalsTest);
        const others = list.filter((candidate) => typeof candidate !== 'string').map(equalsTest);
        const test: ValueTest = (value) => {
          if (typeof value === 'string') return strings.has(value) || others.some((candidate) => candidate(value));
          // A value of the string bracket that is no JS string (a BSON symbol) compares as one.
          return others.some((candidate) => candidate(value)) || (strings.size > 0 && typeBracket(value) === TypeBracket.String && stringTests.some((candidate) => candidate(value)));
        };
        tests.push(operator === '$in' ? (values) => anyValueOrElement(values, test) : (values) => !anyValueOrElement(values, test));
        break;
      }
      case '$exists': {
        const wanted = Boolean(argument);
        tests.push((values) => values.some((value) => value !== undefined) === wanted);
        break;
      }
      case '$type': {
        const test = typeTest(argument);
        tests.push((values) => values.some((value) => test(value) || (Array.isArray(value) && value.some(test))));
        break;
      }
      case '$size': {
        const size = toNumber(argument);
        if (!Number.isInteger(size) || size < 0) throw badValue('$size needs a non-negative integer');
        tests.push((values) => values.some((value) => Array.isArray(value) && value.length === size));
        break;
      }
      case '$all': {
        const required = requireArray(operator, argument);
        const subTests = required.map((entry) => {
          if (isPlainObject(entry) && Object.keys(entry)[0] === '$elemMatch') {
            const test = compileElemMatch(entry.$elemMatch);
            return (values: unknown[]) => values.some((value) => Array.isArray(value) && value.some(test));
          }
          const test = equalsTest(entry);
          return (values: unknown[]) => anyValueOrElement(values, test);
        });
        tests.push((values) => subTests.length > 0 && subTests.every((test) => test(values)));
        break;
      }
      case '$elemMatch': {
        const test = compileElemMatch(argument);
        tests.push((values) => values.some((value) => Array.isArray(value) && value.some(test)));
        break;
      }
      case '$regex': {
        if (typeof argument !== 'string' && !isRegex(argument)) throw badValue('$regex has to be a string');
        if (regexOptions !== undefined && typeof regexOptions !== 'string') throw badValue('$options has to be a string');
        const regex = toRegExp(argument, regexOptions as string | undefined);
        tests.push((values) => anyValueOrElement(values, (value) => typeof value === 'string' && regex.test(value)));
        break;
      }
      case '$options':
        break;
      case '$not': {
        let inner: (values: unknown[]) => boolean;
        if (isRegex(argument)) {
          const regex = toRegExp(argument);
          inner = (values) => anyValueOrElement(values, (value) => typeof value === 'string' && regex.test(value));
        } else if (isPlainObject(argument)) {
          if (Object.keys(argument).length === 0) throw badValue('$not cannot be empty');
          if (!isOperatorObject(argument)) throw badValue('$not needs a regex or a document');
          inner = compileFieldOperators(argument);
        } else {
          throw badValue('$not needs a regex or a document');
        }
        tests.push((values) => !inner(values));
        break;
      }
      case '$mod': {
        const parts = requireArray(operator, argument);
        if (parts.length !== 2) throw badValue(`malformed mod, ${parts.length < 2 ? 'not enough' : 'too many'} elements`);
        const divisor = Math.trunc(toNumber(parts[0]));
        const remainder = Math.trunc(toNumber(parts[1]));
        if (divisor === 0) throw badValue('divisor cannot be 0');
        tests.push((values) =>
          anyValueOrElement(values, (value) => typeBracket(value) === TypeBracket.Number && Math.trunc(toNumber(value)) % divisor === remainder),
        );
        break;
      }
      case '$comment':
        break;
      default:
        throw badValue(`unknown operator: ${operator}`);
    }
  }
  return (values) => tests.every((test) => test(values));
}

function compileLogical(operator: string, argument: unknown): Predicate {
  if (!Array.isArray(argument) || argument.length === 0) throw badValue(`${operator} must be a nonempty array`);
  const predicates = argument.map((clause) => {
    if (!isPlainObject(clause)) throw badValue(`$or/$and/$nor entries need to be full objects`);
    return compileFilter(clause);
  });
  if (operator === '$and') return (document) => predicates.every((predicate) => predicate(document));
  if (operator === '$or') return (document) => predicates.some((predicate) => predicate(document));
  return (document) => !predicates.some((predicate) => predicate(document));
}

/** Compiles a whole filter document into a predicate, throwing MongoDB's error for bad input. */
export function compileFilter(filter: unknown): Predicate {
  if (filter === undefined || filter === null) return () => true;
  if (!isPlainObject(filter)) throw new MongoCommandError(ErrorCodes.TypeMismatch, 'filter must be an object');
  const predicates: Predicate[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$')) {
      switch (field) {
        case '$and':
        case '$or':
        case '$nor':
          predicates.push(compileLogical(field, condition));
          break;
        case '$expr': {
          const query = new Query({ $expr: condition }, {});
          predicates.push((document) => query.test(document));
          break;
        }
        case '$comment':
          break;
        case '$where':
          throw badValue('$where is not allowed in this context');
        case '$text':
          throw new MongoCommandError(ErrorCodes.IndexNotFound, 'text index required for $text query');
        default:
          throw badValue(`unknown top level operator: ${field}.${topLevelHint}`);
      }
      continue;
    }
    if (isOperatorObject(condition)) {
      const test = compileFieldOperators(condition);
      predicates.push((document) => test(pathValues(document, field)));
    } else {
      const test = equalsTest(condition);
      const wholeArray = Array.isArray(condition);
      predicates.push((document) => {
        const values = pathValues(document, field);
        return anyValueOrElement(values, test) || (wholeArray && values.some((value) => valuesEqual(value, condition)));
      });
    }
  }
  if (predicates.length === 1) return predicates[0];
  return (document) => predicates.every((predicate) => predicate(document));
}

/**
 * The top-level fields a filter reads, so a document decoded with only those fields matches
 * exactly as the whole one; undefined when the filter may read any field (`$expr`).
 */
export function filterFields(filter: unknown, into: Set<string> = new Set()): Set<string> | undefined {
  if (filter === undefined || filter === null) return into;
  if (!isPlainObject(filter)) return undefined;
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' || field === '$or' || field === '$nor') {
      if (!Array.isArray(condition)) return undefined;
      for (const clause of condition) if (!filterFields(clause, into)) return undefined;
    } else if (field === '$comment') {
      continue;
    } else if (field.startsWith('$')) {
      return undefined;
    } else {
      into.add(field.split('.')[0]);
    }
  }
  return into;
}
