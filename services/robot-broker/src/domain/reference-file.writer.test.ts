import { serialiseJsonLine } from '@destiny/contracts';
import type { BlobStorage } from '@destiny/platform';
import { createFullTextLinks, storedFullTextUrl } from '@destiny/platform';
import { referenceFileRecord } from './full-text-redaction';
import { referenceFileLineOfView, referenceFileText } from './reference-file.writer';

// A stand-in that signs deterministically, so two ways of writing the file can be compared.
const blob = { signedGetUrl: async (key: string, seconds: number, type?: string) => `https://blob.example/${key}?expires=${seconds}&type=${type ?? ''}` } as unknown as BlobStorage;
const links = createFullTextLinks(blob, 3600);

const views = [
  { visibility: 'public', id: 'r1', identifiers: [{ identifier_type: 'doi', identifier: '10.1/r1' }], enhancements: [{ id: 'e1', robot_version: null, content: { enhancement_type: 'bibliographic', title: 'T\u2028itle', authorship: [] } }], duplicate_decision: null },
  {
    visibility: 'public',
    id: 'r2',
    identifiers: [],
    enhancements: [
      { id: 'e2', derived_from: null, content: { enhancement_type: 'full_text', file_url: 'https://files.example/paper.pdf', mime_type: null } },
      { id: 'e3', content: { enhancement_type: 'full_text', file_url: storedFullTextUrl('ab'.repeat(32)), mime_type: 'application/pdf', checksum: null } },
      { id: 'e4', content: { enhancement_type: 'abstract', abstract: 'A\u0085b' } },
    ],
    duplicate_decision: { duplicate_determination: 'canonical', canonical_reference_id: null },
  },
  { visibility: 'public', id: 'r3', identifiers: null, enhancements: null, duplicate_decision: null },
];

/** The file as robot-broker wrote it from the views before dedup-service wrote the lines. */
async function fileThroughViews(entitlements: string[]): Promise<string> {
  const records = await links.presentAll(views.map((view) => referenceFileRecord(view, entitlements)));
  return records.map((record) => `${serialiseJsonLine(record)}\n`).join('');
}

describe('the reference file written from dedup-service lines', () => {
  it.each([[[]], [['full_text']]])('when the caller holds %j, then the file is the one written from the views, byte for byte', async (entitlements) => {
    // dedup-service's lines (as an earlier dedup-service's views give them): the redacted records written without the links presented.
    const lines = views.map((view) => referenceFileLineOfView(view, entitlements.includes('full_text')));
    expect(lines.map((line) => line.fullText)).toEqual([false, entitlements.length > 0, false]);
    const file = await referenceFileText(lines, links);
    expect(file).toBe(await fileThroughViews(entitlements));
    if (entitlements.length > 0) expect(file).toContain('https://blob.example/');
  });

  it('when there are no lines, then the file is empty', async () => {
    expect(await referenceFileText([], links)).toBe('');
  });
});
