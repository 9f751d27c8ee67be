// Starts the search stand-in in-process on an ephemeral port with an official client attached.
import { Client } from '@elastic/elasticsearch';
import { startSearch } from '@destiny/devstack/search';
import type { RunningStandIn } from '@destiny/devstack';

export interface SearchFixture {
  standIn: RunningStandIn;
  client: Client;
  close(): Promise<void>;
}

export async function startSearchFixture(dataDir?: string): Promise<SearchFixture> {
  const standIn = await startSearch({ port: 0, dataDir });
  const client = new Client({ node: standIn.url });
  return {
    standIn,
    client,
    async close() {
      await client.close();
      await standIn.stop();
    },
  };
}

/** The Elasticsearch error body of a failed client call. */
export async function esError(promise: Promise<unknown>): Promise<{ statusCode: number; body: { error: Record<string, unknown> & { type: string; reason: string; root_cause: Array<{ type: string; reason: string }> }; status: number } }> {
  try {
    await promise;
  } catch (error) {
    const meta = (error as { meta?: { statusCode: number; body: never } }).meta;
    if (meta) return { statusCode: meta.statusCode, body: meta.body };
    throw error;
  }
  throw new Error('expected the call to fail');
}
