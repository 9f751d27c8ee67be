import { redactFullText, redactFullTextAll } from './full-text-redaction';

const abstract = { id: 'e1', source: 's', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'A.' } };
const fullText = { id: 'e2', source: 's', visibility: 'public', content: { enhancement_type: 'full_text', file_url: 'https://example.org/a.pdf' } };
const reference = { visibility: 'public', id: 'r1', identifiers: [{ identifier_type: 'doi', identifier: '10.1/x' }], enhancements: [abstract, fullText] };

describe('full-text redaction (§6.1)', () => {
  it('when the caller lacks the full_text entitlement, then only the full-text enhancements are removed', () => {
    const redacted = redactFullText(reference, []);
    expect(redacted).toEqual({ ...reference, enhancements: [abstract] });
    expect(Object.keys(redacted)).toEqual(['visibility', 'id', 'identifiers', 'enhancements']);
    expect(reference.enhancements).toHaveLength(2);
  });

  it('when the caller holds full_text, then the reference is returned unchanged', () => {
    expect(redactFullText(reference, ['full_text'])).toBe(reference);
  });

  it('when a reference has no enhancements or null ones, then it passes through', () => {
    expect(redactFullText({ id: 'r2', enhancements: null }, [])).toEqual({ id: 'r2', enhancements: null });
    expect(redactFullTextAll([reference, { id: 'r3', enhancements: [abstract] }], ['robot_entitlement_writer'])).toEqual([
      { ...reference, enhancements: [abstract] },
      { id: 'r3', enhancements: [abstract] },
    ]);
  });
});
