import { AnalyzerRegistry, asciiFold, standardAnalyzer } from './text-analysis';

describe('standard analyzer', () => {
  test('when text has punctuation and case, then it yields lowercase Unicode word tokens', () => {
    expect(standardAnalyzer.analyze('The Quick-Brown fox, jumped! (twice)')).toEqual(['the', 'quick', 'brown', 'fox', 'jumped', 'twice']);
  });

  test('when words join with apostrophes, dots or colons, then UAX #29 keeps them together', () => {
    expect(standardAnalyzer.analyze("Don't stop U.S.A. at 3.14 or 1,000 inclusion:destiny")).toEqual(["don't", 'stop', 'u.s.a', 'at', '3.14', 'or', '1,000', 'inclusion:destiny']);
  });

  test('when letters and digits mix across a dot, then they split as the standard tokenizer does', () => {
    expect(standardAnalyzer.analyze('a.1 foo_bar x2')).toEqual(['a', '1', 'foo_bar', 'x2']);
  });

  test('when ideographs appear, then each is its own token', () => {
    expect(standardAnalyzer.analyze('中文 text')).toEqual(['中', '文', 'text']);
  });

  test('when accents appear, then the standard analyzer keeps them', () => {
    expect(standardAnalyzer.analyze('Café Zürich')).toEqual(['café', 'zürich']);
  });
});

describe('custom analyzers', () => {
  test('when asciifolding is configured, then accents and special letters fold to ASCII', () => {
    const registry = new AnalyzerRegistry({ analyzer: { folding: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } });
    expect(registry.get('folding').analyze('Café Zürich Straße Øresund')).toEqual(['cafe', 'zurich', 'strasse', 'oresund']);
    expect(registry.get('folding').normalize('Éco*')).toBe('eco*');
  });

  test('when a stop filter is configured, then English stop words are dropped', () => {
    const registry = new AnalyzerRegistry({ analyzer: { english_stop: { tokenizer: 'standard', filter: ['lowercase', 'stop'] } } });
    expect(registry.get('english_stop').analyze('The state of the art')).toEqual(['state', 'art']);
  });

  test('when an analyzer names an unknown filter, then the registry refuses it', () => {
    expect(() => new AnalyzerRegistry({ analyzer: { bad: { tokenizer: 'standard', filter: ['nope'] } } })).toThrow('failed to find global filter under [nope]');
  });

  test('when asciiFold meets plain ASCII, then the token is unchanged', () => {
    expect(asciiFold('plain')).toBe('plain');
  });
});
