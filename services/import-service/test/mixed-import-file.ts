import type { ImportBatchSummary } from '@destiny/contracts';

// The import file every strategy is tried on, here through gRPC and in tests/e2e through the
// gateway: a seed file first, then 1,000 lines of which every tenth is malformed, blank,
// unparseable, partly invalid, colliding with a seed or carrying an unknown key.

export const doi = (value: string) => ({ identifier: value, identifier_type: 'doi' });
export const abstract = (text: string) => ({ source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: text } });

/** 100 lines, `10.5555/seed.<k>` each; the mixed file's colliding lines name them. */
export function seedFile(): string {
  return Array.from({ length: 100 }, (_, k) => JSON.stringify({ identifiers: [doi(`10.5555/seed.${k}`)], enhancements: [abstract(`seed ${k}`)] })).join('\n');
}

export function mixedFile(tag: string): string {
  const lines: string[] = [];
  for (let i = 1; i <= 1000; i += 1) {
    switch (i % 10) {
      case 0:
        lines.push('{"identifiers": [');
        break;
      case 1:
        lines.push('   ');
        break;
      case 2:
        lines.push(JSON.stringify({ identifiers: [{ identifier: 'not-a-doi', identifier_type: 'doi' }] }));
        break;
      case 3:
        lines.push(JSON.stringify({ identifiers: [doi(`10.5555/${tag}.${i}`), { identifier: 'bad', identifier_type: 'open_alex' }], enhancements: [{ source: 'x' }, abstract(`partial ${tag}`)] }));
        break;
      case 4:
        lines.push(JSON.stringify({ identifiers: [doi(`10.5555/seed.${Math.floor(i / 10)}`)], enhancements: [abstract(`merged from ${tag}`)] }));
        break;
      case 5:
        lines.push(JSON.stringify({ identifiers: [doi(`10.5555/${tag}.${i}`)], surprise: true }));
        break;
      default:
        lines.push(JSON.stringify({ visibility: 'public', identifiers: [doi(`10.5555/${tag}.${i}`)], enhancements: [abstract(`good ${tag} ${i}`)] }));
    }
  }
  return `${lines.join('\n')}\n`;
}

export const MIXED_FILE_STRATEGIES = ['fail', 'discard', 'merge_defensive', 'merge_aggressive', 'append'] as const;

/** What each strategy makes of the mixed file (§8.5, §8.6): counts, wording, and where collisions land. */
export function expectMixedFileResults(
  strategy: string,
  summary: ImportBatchSummary,
  all: Array<{ status: string; reference_id: string | null; failure_details: string | null }>,
  seedReferenceId: (k: number) => string | undefined,
): void {
  const failed = strategy === 'fail' ? 400 : 300;
  expect(summary.import_batch_status).toBe('partially_failed');
  expect(summary.results).toEqual({ created: 0, started: 0, completed: 800 - failed, partially_failed: 100, failed, retrying: 0 });
  expect(summary.failure_details).toHaveLength(failed + 100);
  expect(all).toHaveLength(900);
  const byLine = (line: number) => all[line - 2 - Math.floor((line - 1) / 10)];
  expect(byLine(10).failure_details).toMatch(/^Entry 10:\n\nInvalid JSON: /);
  expect(byLine(12)).toMatchObject({ status: 'failed', reference_id: null });
  expect(byLine(12).failure_details).toMatch(/^Entry 12\n\nAll identifiers failed to parse\.\n\nIdentifier 1: .+/);
  expect(byLine(13).status).toBe('partially_failed');
  expect(byLine(13).reference_id).not.toBeNull();
  expect(byLine(13).failure_details).toMatch(/^Entry ref 13:\n\nIdentifier 2: .+\n\nEnhancement 1: .+$/);
  expect(byLine(15).failure_details).toMatch(/^Entry 15:\n\n/);
  expect(byLine(16)).toMatchObject({ status: 'completed', failure_details: null });
  const collided = byLine(14);
  if (strategy === 'fail') {
    expect(collided.status).toBe('failed');
    expect(collided.failure_details).toBe('Entry 14:\n\nIdentifier(s) are already mapped on an existing reference:\nidentifier_type=doi, identifier=10.5555/seed.1');
  } else if (strategy === 'discard') {
    expect(collided).toMatchObject({ status: 'completed', reference_id: null, failure_details: null });
  } else {
    expect(collided).toMatchObject({ status: 'completed', reference_id: seedReferenceId(1) });
  }
}
