import { canonicalContentJson, canonicalJson, contentFingerprint, enhancementFingerprint, FINGERPRINT_EXCLUDED_KEYS } from './enhancement.fingerprint';

/** The first implementation (entries filtered, sorted, mapped and joined), kept as the reference the faster one must equal. */
function referenceCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => referenceCanonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== null && item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${referenceCanonicalJson(item)}`).join(',')}}`;
}

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 6 : 9));
  const keys = ['title', 'a', 'B', 'é', 'z"q', '10', '2', 'enhancement_type', 'updated_date', '', '\u{1F600}'];
  switch (pick) {
    case 0: return null;
    case 1: return undefined;
    case 2: return next() < 0.5;
    case 3: return Math.floor(next() * 2000) - 1000 + (next() < 0.3 ? 0.25 : 0);
    case 4: return keys[Math.floor(next() * keys.length)].repeat(1 + Math.floor(next() * 3));
    case 5: return 'text with \n newline and "quotes" and ünïcode';
    case 6: {
      const array: unknown[] = Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
      if (next() < 0.2) array[array.length + 1] = 1;
      return array;
    }
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 6) }, () => [keys[Math.floor(next() * keys.length)], randomValue(next, depth + 1)]));
  }
}

describe('canonicalJson', () => {
  it('when given 5,000 generated values (nested objects and arrays, nulls, holes, odd keys), then it writes what the first implementation wrote', () => {
    let seed = 42;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let round = 0; round < 5000; round += 1) {
      const value = randomValue(next, 0);
      expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const content = { enhancement_type: next() < 0.5 ? 'bibliographic' : 'raw', ...(value as Record<string, unknown>) };
        const excluded = FINGERPRINT_EXCLUDED_KEYS[String(content.enhancement_type)] ?? [];
        expect(canonicalContentJson(content)).toBe(referenceCanonicalJson(Object.fromEntries(Object.entries(content).filter(([key]) => !excluded.includes(key)))));
      }
    }
  });

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
