// Search enhancement requests (contract §11) with their scan progress, one document each.
import type { Collection, Db } from 'mongodb';
import type { IndexDeclaration } from '@destiny/platform';
import { CLAIMABLE_STATUSES, type ScanProgress, type SearchEnhancementRequest, type SearchStatus } from '../domain/search-enhancement-request';

export const SEARCH_REQUESTS_COLLECTION = 'search_enhancement_requests';

export const SEARCH_REQUEST_INDEXES: IndexDeclaration[] = [{ collection: SEARCH_REQUESTS_COLLECTION, keys: { search_status: 1, updated_at: 1 } }];

type SearchRequestDocument = Omit<SearchEnhancementRequest, 'id'> & { _id: string };

function fromDocument(document: SearchRequestDocument): SearchEnhancementRequest {
  const { _id, ...rest } = document;
  return { id: _id, ...rest };
}

export class SearchEnhancementRequestRepository {
  private readonly requests: Collection<SearchRequestDocument>;

  constructor(db: Db) {
    this.requests = db.collection<SearchRequestDocument>(SEARCH_REQUESTS_COLLECTION);
  }

  async insert(request: SearchEnhancementRequest): Promise<void> {
    const { id, ...rest } = request;
    await this.requests.insertOne({ _id: id, ...rest });
  }

  async get(id: string): Promise<SearchEnhancementRequest | null> {
    const document = await this.requests.findOne({ _id: id });
    return document ? fromDocument(document) : null;
  }

  /** `pending`/`searching` → `searching`; null when the request is finished (or unknown). */
  async claim(id: string, now: Date): Promise<SearchEnhancementRequest | null> {
    const document = await this.requests.findOneAndUpdate(
      { _id: id, search_status: { $in: [...CLAIMABLE_STATUSES] } },
      { $set: { search_status: 'searching', updated_at: now } },
      { returnDocument: 'after' },
    );
    return document ? fromDocument(document) : null;
  }

  /** Stores a finished page; only while the scan still owns the request (`searching`). */
  async recordPage(id: string, progress: ScanProgress, nMatched: number | null, now: Date): Promise<void> {
    const set: Partial<SearchRequestDocument> = { progress, updated_at: now };
    if (nMatched !== null) set.n_matched = nMatched;
    await this.requests.updateOne({ _id: id, search_status: 'searching' }, { $set: set });
  }

  async finish(id: string, status: Extract<SearchStatus, 'completed' | 'failed'>, error: string | null, now: Date, nMatched?: number): Promise<void> {
    const set: Partial<SearchRequestDocument> = { search_status: status, error, updated_at: now };
    if (nMatched !== undefined) set.n_matched = nMatched;
    await this.requests.updateOne({ _id: id }, { $set: set });
  }
}
