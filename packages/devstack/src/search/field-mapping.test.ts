import { Mapping, normalizeMapping, parseDocument, type ParsedLevelDoc } from './field-mapping';
import { AnalyzerRegistry } from './text-analysis';

function freshMapping(): Mapping {
  return new Mapping(
    normalizeMapping({
      properties: {
        title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        created: { type: 'date' },
        items: { type: 'nested', properties: { kind: { type: 'keyword' } } },
        content: { type: 'object', dynamic: true, properties: { kind: { type: 'keyword' } } },
      },
    }),
    new AnalyzerRegistry(undefined),
  );
}

/** Field paths, types and values of a parsed document, nested levels included. */
function summary(doc: ParsedLevelDoc): unknown {
  return { values: doc.values.map(([info, value]) => [info.path, info.type, info.level, value]), children: doc.children.map((child) => [child.path, summary(child.doc)]) };
}

const documents: Array<Record<string, unknown>> = [
  { title: 'Deep sea', created: '2020-01-02', items: [{ kind: 'x', note: 'free text' }], content: { kind: 'a', extra: 5, 'dotted.key': 'v' } },
  { title: 'Reef', items: [{ kind: 'y' }, { kind: 'z' }], content: { extra: 'now text', when: '2021-03-04', nested: { deeper: true } } },
  { content: { extra: [1.5, 2] }, 'items.kind': 'flat' },
];

describe('parsing documents with the cached key paths of a mapping', () => {
  test('when documents are parsed again by a mapping that has seen them, then the values are those a fresh mapping gives', () => {
    const warm = freshMapping();
    for (const document of documents) parseDocument(warm, document, '0');
    for (const document of documents) {
      const again = parseDocument(warm, document, '1');
      const fresh = parseDocument(freshMapping(), document, '1');
      expect(summary(again.root)).toEqual(summary(fresh.root));
      expect(again.additions).toEqual(fresh.additions);
    }
  });

  test('when documents introduce one dynamic field with different types, then each document maps it by its own first value', () => {
    const mapping = freshMapping();
    const types = documents.map((document) => summary(parseDocument(mapping, document, '0').root));
    expect(JSON.stringify(types[0])).toContain('"content.extra","long"');
    expect(JSON.stringify(types[1])).toContain('"content.extra","text"');
    expect(JSON.stringify(types[2])).toContain('"content.extra","float"');
  });

  test('when a dynamic field holds values of two types in one document, then parsing fails as before the cache', () => {
    const mapping = freshMapping();
    parseDocument(mapping, { content: { extra: 'text' } }, '0');
    expect(() => parseDocument(mapping, { content: { extra: [5, 'not a number'] } }, '1')).toThrow(/failed to parse field \[content.extra\] of type \[long\]/);
    expect(() => parseDocument(mapping, { created: 'not a date' }, '2')).toThrow(/failed to parse field \[created\]/);
  });
});
