import { uuidv7, type ReferenceChangedEvent, type ReferencesIndexedEvent } from '@destiny/contracts';
import type { MessageBus } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import type { IndexStateRepository } from '../data-access/index-state.repository';
import { indexReferenceChanges } from './index-reference-changes.usecase';

function changed(version: number): ReferenceChangedEvent {
  const id = uuidv7();
  return {
    event_id: uuidv7(),
    reference_id: id,
    version,
    kind: 'enhanced',
    reference: { visibility: 'public', id, identifiers: [], enhancements: [], duplicate_decision: { duplicate_determination: 'canonical', canonical_reference_id: null } },
    changeset: { visibility: 'public' },
    duplicate_decision: { duplicate_determination: 'canonical', canonical_reference_id: null },
    origin: {},
    occurred_at: new Date().toISOString(),
  };
}

describe('indexReferenceChanges', () => {
  it('when the index refuses one document of a bulk, then references.indexed announces the others as indexed and that version as failed', async () => {
    const [accepted, refused] = [changed(3), changed(7)];
    // Elasticsearch's answer to the bulk: the second document is refused for good (a mapping error).
    const es = {
      bulk: async () => ({
        errors: true,
        items: [
          { index: { _id: accepted.reference_id, status: 201 } },
          { index: { _id: refused.reference_id, status: 400, error: { type: 'mapper_parsing_exception', reason: 'failed to parse' } } },
        ],
      }),
    } as unknown as Client;
    const state = { removedVersions: async () => new Map(), currentRebuild: async () => null, record: async () => undefined } as unknown as IndexStateRepository;
    const published: ReferencesIndexedEvent[] = [];
    const bus = { publish: async (_exchange: string, _key: string, payload: ReferencesIndexedEvent) => void published.push(payload) } as unknown as MessageBus;

    const report = await indexReferenceChanges({ es, state, bus }, [accepted, refused]);

    expect(report.indexed).toEqual([{ reference_id: accepted.reference_id, version: 3 }]);
    expect(published).toHaveLength(1);
    expect(published[0].items).toEqual([{ reference_id: accepted.reference_id, version: 3 }]);
    expect(published[0].failed).toEqual([{ reference_id: refused.reference_id, version: 7 }]);
  });
});
