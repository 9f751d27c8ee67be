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

let bareCounter = 0;

/**
 * A record with only the fields a test gives (the rest null, no authors, `year` as given): for sets
 * built field by field, where what a record lacks is the point. Ids are `<prefix><five digits>`.
 */
export function bareDedupRecord(idPrefix: string, fields: Partial<DedupRecord> & { year: number | null }): DedupRecord {
  bareCounter += 1;
  return { id: `${idPrefix}${String(bareCounter).padStart(5, '0')}`, title: null, authors: [], venue: null, volume: null, issue: null, pages: null, doi: null, identifiers: [], ...fields };
}
