// Record builder shared by the engine's unit tests (not part of the engine).

import { type DedupRecord } from './record';

let counter = 0;

export function record(fields: Partial<DedupRecord> = {}): DedupRecord {
  counter += 1;
  return {
    id: fields.id ?? `r${String(counter).padStart(5, '0')}`,
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
