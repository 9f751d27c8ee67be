import { serialiseJsonLine } from '@destiny/contracts';
import { referenceFileLine } from './reference-file-line.builder';
import { deduplicatedView, type ReferenceDocument, type StoredEnhancement } from './reference.model';

/**
 * The reference file's line as it was written before dedup-service wrote the lines: the view
 * JSON-encoded for robot-broker, parsed there, redacted (`referenceFileRecord`) and written.
 */
function lineThroughView(reference: ReferenceDocument, duplicates: ReferenceDocument[], entitlements: string[]): string {
  const view = JSON.parse(JSON.stringify(deduplicatedView(reference, duplicates))) as { visibility: unknown; id: string; identifiers?: unknown[] | null; enhancements?: Array<{ content?: { enhancement_type?: string } }> | null };
  const fullText = entitlements.includes('full_text');
  const enhancements = (view.enhancements ?? []).filter((enhancement) => fullText || enhancement.content?.enhancement_type !== 'full_text');
  return serialiseJsonLine({ visibility: view.visibility, id: view.id, identifiers: view.identifiers ?? [], enhancements });
}

function enhancement(id: string, referenceId: string, content: Record<string, unknown>, extra: Partial<StoredEnhancement> = {}): StoredEnhancement {
  return { id, reference_id: referenceId, source: 'importer', visibility: 'public', robot_version: null, derived_from: null, content, created_at: '2026-01-01T00:00:00.000Z', superseded_by: null, fingerprint: id, ...extra };
}

function reference(id: string, identifiers: ReferenceDocument['identifiers'], enhancements: StoredEnhancement[], determination: 'canonical' | 'duplicate' | null = 'canonical', canonical: string | null = null): ReferenceDocument {
  return {
    _id: id,
    visibility: 'public',
    identifiers,
    enhancements,
    active_decision: determination ? { decision_id: `d-${id}`, duplicate_determination: determination, canonical_reference_id: canonical, decision_authority: 'system' } : null,
    version: 2,
    import_result_id: null,
    merged_import_results: [],
    import_decision_id: null,
    created_at: new Date('2026-01-01T00:00:00.000Z'),
  };
}

const fullTextContent = { enhancement_type: 'full_text', file_url: 'https://stored-full-text.invalid/sha256/' + 'ab'.repeat(32), mime_type: 'application/pdf', sha256: null };

const cases: Array<{ name: string; reference: ReferenceDocument; duplicates: ReferenceDocument[] }> = [
  { name: 'no identifiers or enhancements', reference: reference('a', [], []), duplicates: [] },
  {
    name: 'nulls at every depth and empty arrays and objects',
    reference: reference('b', [{ identifier_type: 'pm_id', identifier: 123 }], [
      enhancement('e1', 'b', { enhancement_type: 'bibliographic', title: null, authorship: [], pagination: {}, publisher: { name: null, place: 'X' }, list: [null, 1, { value: null }] }, { robot_version: '1.0', derived_from: [] }),
    ]),
    duplicates: [],
  },
  {
    name: 'line and paragraph separators and non-ASCII text',
    reference: reference('c', [{ identifier_type: 'other', identifier: 'x\u2028y', other_identifier_name: 'n\u0085' }], [enhancement('e1', 'c', { enhancement_type: 'abstract', process: 'other', abstract: 'Zeile\u2029zwei — 雪 \u{1F600} "quoted" \\ back' })]),
    duplicates: [],
  },
  {
    name: 'superseded enhancements and a full text',
    reference: reference('d', [{ identifier_type: 'doi', identifier: '10.1/d' }], [
      enhancement('e1', 'd', { enhancement_type: 'bibliographic', title: 'Old' }, { superseded_by: 'e2' }),
      enhancement('e2', 'd', { enhancement_type: 'bibliographic', title: 'New' }),
      enhancement('e3', 'd', fullTextContent),
    ]),
    duplicates: [],
  },
  {
    name: 'a canonical with duplicates, one holding a full text',
    reference: reference('f', [{ identifier_type: 'doi', identifier: '10.1/f' }], [enhancement('e1', 'f', { enhancement_type: 'bibliographic', title: 'F' })]),
    duplicates: [
      reference('g', [{ identifier_type: 'open_alex', identifier: 'W1' }], [enhancement('e2', 'g', fullTextContent), enhancement('e3', 'g', { enhancement_type: 'abstract', abstract: 'G' }, { superseded_by: 'e4' })], 'duplicate', 'f'),
      reference('h', [], [enhancement('e5', 'h', { enhancement_type: 'annotation', annotations: [{ label: 'l', value: null }] })], 'duplicate', 'f'),
    ],
  },
  { name: 'an undecided reference with a null visibility', reference: { ...reference('i', [{ identifier_type: 'doi', identifier: '10.1/i' }], [], null), visibility: null as unknown as string }, duplicates: [] },
];

describe('reference-file lines written from the stored documents', () => {
  it.each(cases.flatMap((item) => [[], ['full_text'], ['other', 'full_text']].map((entitlements) => ({ ...item, entitlements }))))(
    'when the reference has $name and the caller holds $entitlements, then the line is the one written through the view, byte for byte',
    ({ reference: stored, duplicates, entitlements }) => {
      const written = referenceFileLine(stored, duplicates, entitlements.includes('full_text'));
      expect(written.id).toBe(stored._id);
      expect(written.line).toBe(lineThroughView(stored, duplicates, entitlements));
      expect(written.fullText).toBe(entitlements.includes('full_text') && (JSON.parse(written.line) as { enhancements: Array<{ content: { enhancement_type: string } }> }).enhancements.some((item) => item.content.enhancement_type === 'full_text'));
    },
  );

  it('when references are generated at random, then every line is the one written through the view', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const scalars = [null, 0, -1.5, 2147483648, true, false, '', 'text', 'a\u2028b', '\u0085', '√ unicode', [], {}];
    const value = (depth: number): unknown => {
      const roll = random();
      if (depth > 2 || roll < 0.6) return pick(scalars);
      if (roll < 0.8) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, index) => [`k${index}`, value(depth + 1)]));
    };
    const generated = (id: string, determination: 'canonical' | 'duplicate', canonical: string | null) =>
      reference(
        id,
        Array.from({ length: Math.floor(random() * 3) }, (_, index) => ({ identifier_type: 'other', identifier: `${id}-${index}`, other_identifier_name: pick([null, 'name']) }) as never),
        Array.from({ length: Math.floor(random() * 4) }, (_, index) =>
          enhancement(`${id}-e${index}`, id, { enhancement_type: pick(['bibliographic', 'abstract', 'full_text', 'annotation']), field: value(0), other: value(0) }, { robot_version: pick([null, '2.0']), derived_from: pick([null, [], ['x']]), superseded_by: pick([null, null, 'later']) }),
        ),
        determination,
        canonical,
      );
    for (let round = 0; round < 300; round += 1) {
      const canonical = generated(`r${round}`, 'canonical', null);
      const duplicates = Array.from({ length: Math.floor(random() * 3) }, (_, index) => generated(`r${round}-d${index}`, 'duplicate', canonical._id));
      for (const entitlements of [[], ['full_text']]) expect(referenceFileLine(canonical, duplicates, entitlements.includes('full_text')).line).toBe(lineThroughView(canonical, duplicates, entitlements));
    }
  });
});
