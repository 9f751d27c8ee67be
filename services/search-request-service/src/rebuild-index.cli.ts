// Rebuilds the `reference` search index from dedup-service: streams every deduplicated view into a
// new versioned index, then moves the alias atomically and deletes the old index. A running
// search-request-service keeps indexing events into both indices meanwhile (it reads the rebuild
// marker this command stores in MongoDB).
import { connectMongo, createLogger, loadConfig } from '@destiny/platform';
import { searchRequestServiceConfig } from './config';
import { createDedupViewsClient } from './data-access/dedup-views.client';
import { INDEX_STATE_INDEXES, IndexStateRepository } from './data-access/index-state.repository';
import { ensureReferenceIndex } from './data-access/reference-index';
import { createElasticsearchClient } from './index';
import { rebuildIndex } from './usecases/rebuild-index.usecase';

async function main(): Promise<void> {
  const config = loadConfig(searchRequestServiceConfig, process.env);
  const logger = createLogger({ service: 'rebuild-index', level: config.LOG_LEVEL });
  const es = createElasticsearchClient(config.ELASTICSEARCH_URL);
  const mongo = await connectMongo({ url: config.MONGODB_URL, database: config.MONGODB_DATABASE, indexes: INDEX_STATE_INDEXES, appName: 'rebuild-index' });
  const views = createDedupViewsClient(config.DEDUP_SERVICE_GRPC_URL);
  try {
    await ensureReferenceIndex(es);
    const report = await rebuildIndex({ es, state: new IndexStateRepository(mongo.db), views, logger });
    console.log(JSON.stringify({ index: report.index, indexed: report.indexed }));
  } finally {
    views.close();
    await mongo.close();
    await es.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
