import { MongoClient, type CreateIndexesOptions, type Db, type IndexSpecification } from 'mongodb';

export interface IndexDeclaration {
  collection: string;
  keys: IndexSpecification;
  options?: CreateIndexesOptions;
}

export interface MongoConnection {
  client: MongoClient;
  db: Db;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Connects, then declares the service's indexes (idempotent: existing ones are left as they are). */
export async function connectMongo(options: { url: string; database: string; indexes?: IndexDeclaration[]; appName?: string }): Promise<MongoConnection> {
  const client = new MongoClient(options.url, { appName: options.appName, serverSelectionTimeoutMS: 10_000, maxPoolSize: 50 });
  await client.connect();
  const db = client.db(options.database);
  for (const index of options.indexes ?? []) {
    await db.collection(index.collection).createIndex(index.keys, index.options ?? {});
  }
  return {
    client,
    db,
    async ping() {
      try {
        await db.command({ ping: 1 }, { timeoutMS: 2000 });
        return true;
      } catch {
        return false;
      }
    },
    close: () => client.close(),
  };
}
