import { canonicalContentJson, canonicalJson, contentFingerprint, enhancementFingerprint } from './enhancement.fingerprint';

describe('canonicalJson', () => {
  it('when objects have nulls and unsorted keys, then nulls are dropped at every depth and keys sorted', () => {
    expect(canonicalJson({ b: 1, a: null, c: { z: null, y: [null, { k: 2, j: null }] } })).toBe('{"b":1,"c":{"y":[null,{"k":2}]}}');
  });

  it('when two objects differ only in key order or null fields, then they are equal', () => {
    expect(canonicalJson({ title: 'T', publisher: null, year: 2024 })).toBe(canonicalJson({ year: 2024, title: 'T' }));
  });
});

describe('content fingerprint exclusions (§6.5)', () => {
  it('when bibliographic content differs only in updated_date, then the fingerprints match', () => {
    const a = { enhancement_type: 'bibliographic', title: 'T', updated_date: '2024-01-01' };
    const b = { enhancement_type: 'bibliographic', title: 'T', updated_date: '2025-06-30' };
    expect(contentFingerprint(a)).toBe(contentFingerprint(b));
    expect(contentFingerprint(a)).not.toBe(contentFingerprint({ ...a, created_date: '2024-01-01' }));
  });

  it('when raw content differs only in source_export_date, then the fingerprints match', () => {
    const a = { enhancement_type: 'raw', source_export_date: '2026-01-01T00:00:00Z', description: 'd', metadata: {}, data: { x: 1 } };
    expect(contentFingerprint(a)).toBe(contentFingerprint({ ...a, source_export_date: '2027-01-01T00:00:00Z' }));
    expect(contentFingerprint(a)).not.toBe(contentFingerprint({ ...a, data: { x: 2 } }));
  });

  it('when full-text content differs only in retrieved_at and the stored file location, then the fingerprints match', () => {
    const a = { enhancement_type: 'full_text', file_url: 'https://blob/a?sig=1', sha256_checksum: 'ab', retrieved_at: '2026-01-01T00:00:00Z' };
    const b = { ...a, file_url: 'https://blob/a?sig=2', retrieved_at: '2026-02-01T00:00:00Z' };
    expect(contentFingerprint(a)).toBe(contentFingerprint(b));
    expect(contentFingerprint(a)).not.toBe(contentFingerprint({ ...a, sha256_checksum: 'cd' }));
  });

  it('when an excluded key belongs to another type, then it still counts', () => {
    const a = { enhancement_type: 'abstract', process: 'other', abstract: 'x', updated_date: '1' };
    expect(canonicalContentJson(a)).toContain('updated_date');
  });
});

describe('enhancement fingerprint', () => {
  const base = { source: 's', visibility: 'public', robot_version: '1', derived_from: ['b', 'a'], content: { enhancement_type: 'abstract', process: 'other', abstract: 'x' } };

  it('when only id-like fields or the order of derived_from differ, then the fingerprints match', () => {
    expect(enhancementFingerprint(base)).toBe(enhancementFingerprint({ ...base, derived_from: ['a', 'b'] }));
  });

  it.each([
    ['source', { source: 't' }],
    ['visibility', { visibility: 'hidden' }],
    ['robot_version', { robot_version: '2' }],
    ['derived_from', { derived_from: null }],
    ['content', { content: { enhancement_type: 'abstract', process: 'other', abstract: 'y' } }],
  ])('when %s differs, then the fingerprints differ', (_field, change) => {
    expect(enhancementFingerprint(base)).not.toBe(enhancementFingerprint({ ...base, ...change }));
  });

  it('when robot_version is absent or null, then it is the same enhancement', () => {
    const { robot_version: _robotVersion, ...withoutVersion } = base;
    expect(enhancementFingerprint(withoutVersion)).toBe(enhancementFingerprint({ ...base, robot_version: null }));
  });
});
