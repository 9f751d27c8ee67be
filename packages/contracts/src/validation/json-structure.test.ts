import { jsonStructureProblem, MAX_JSON_DEPTH } from './json-structure';

const nested = (depth: number, leaf: string) => JSON.parse(`${'{"a":['.repeat(depth / 2)}${leaf}${']}'.repeat(depth / 2)}`) as unknown;

describe('jsonStructureProblem', () => {
  it('when a value is ordinary JSON, then there is no problem', () => {
    expect(jsonStructureProblem({ identifiers: [{ identifier: 12, identifier_type: 'pm_id' }], text: 'a\u0000b', nothing: null, deep: nested(MAX_JSON_DEPTH - 2, '1.5e300') })).toBeUndefined();
    expect(jsonStructureProblem('text')).toBeUndefined();
    expect(jsonStructureProblem(7)).toBeUndefined();
  });

  it('when arrays and objects nest deeper than the limit, then the depth is named, however deep the value is', () => {
    expect(jsonStructureProblem(nested(MAX_JSON_DEPTH + 2, '1'))).toBe(`JSON is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    expect(jsonStructureProblem(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`))).toBe(`JSON is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  });

  it('when JSON.parse made a number infinite, anywhere, then it is out of range', () => {
    for (const text of ['1e400', '[-1e400]', '{"a":{"b":[1, 2e999]}}']) expect(jsonStructureProblem(JSON.parse(text))).toMatch(/^A number is out of range/);
  });

  it('when an object key holds a NUL character, then the key is named', () => {
    expect(jsonStructureProblem(JSON.parse('{"content":{"data":{"a\\u0000":1}}}'))).toBe('The object key "a\\u0000" contains a NUL character.');
  });

  it('when a string or a key holds an unpaired surrogate escape, anywhere, then it is named as not valid Unicode', () => {
    for (const text of ['"\\ud800x"', '{"notes":"a\\udc00"}', '[["ok", "\\ud83d"]]', '{"a\\ud800":1}']) {
      expect(jsonStructureProblem(JSON.parse(text))).toMatch(/^A string holds an unpaired UTF-16 surrogate escape/);
    }
    expect(jsonStructureProblem(JSON.parse('{"emoji":"\\ud83d\\ude00","plain":"\u00e9"}'))).toBeUndefined();
  });
});
