import { uuidv7, type ReferenceChangedEvent } from '@destiny/contracts';
import { createLogger } from '@destiny/platform';
import { Client } from '@elastic/elasticsearch';
import { percolateReferenceChanges } from './percolate-reference-changes.usecase';

describe('the enable_percolation feature flag (§13.2)', () => {
  test('when percolation is disabled, then events are consumed without asking Elasticsearch or robot-broker anything', async () => {
    const id = uuidv7();
    const decision = { duplicate_determination: 'canonical' as const, canonical_reference_id: null };
    const event: ReferenceChangedEvent = {
      event_id: uuidv7(),
      reference_id: id,
      version: 2,
      kind: 'duplicate_decision_changed',
      reference: { visibility: 'public', id, identifiers: [{ identifier: '10.1/x', identifier_type: 'doi' }], enhancements: [], duplicate_decision: decision },
      changeset: { visibility: 'public', identifiers: [{ reference_id: id, identifier: '10.1/x', identifier_type: 'doi' }], duplicate_determination: 'canonical' },
      duplicate_decision: decision,
      origin: {},
      occurred_at: new Date().toISOString(),
    };
    const calls: unknown[] = [];
    // An address nothing listens on: any request would fail the call.
    const es = new Client({ node: 'http://127.0.0.1:9', maxRetries: 0, requestTimeout: 1000 });
    const robots = { createPendingEnhancementItems: async (items: readonly unknown[]) => (calls.push(items), items.length) };
    const outcome = await percolateReferenceChanges({ es, robots, logger: createLogger({ service: 'test', level: 'silent' }), enabled: false }, [event]);
    expect(outcome).toMatchObject({ percolated: 0, dispatched: 0, created: 0 });
    expect(calls).toEqual([]);
    await expect(percolateReferenceChanges({ es, robots, logger: createLogger({ service: 'test', level: 'silent' }) }, [event])).rejects.toThrow();
    await es.close();
  });
});
