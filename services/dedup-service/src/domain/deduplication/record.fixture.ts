import { type DedupRecord } from './record';

let counter = 0;

/** A complete journal-article record with a fresh id; tests override the fields they are about. */
export function dedupRecord(fields: Partial<DedupRecord> = {}): DedupRecord {
  counter += 1;
  return {
    id: `r${counter}`,
    title: 'Complement factor H mutations in atypical haemolytic uraemic syndrome: a cohort study',
    authors: ['Zuber, J.', 'Le Quintrec, M.', 'Loirat, C.'],
    year: 2011,
    venue: 'Nature Reviews Nephrology',
    volume: '7',
    issue: '1',
    pages: '23-35',
    doi: null,
    identifiers: [],
    ...fields,
  };
}
