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

/** The services' defaults; an option the connection string names wins (the driver prefers options given in code). */
const CLIENT_DEFAULTS = { serverSelectionTimeoutMS: 10_000, maxPoolSize: 50 } as const;

/** CLIENT_DEFAULTS without the options `url` sets itself (URI option names are case-insensitive). */
export function clientDefaultsFor(url: string): Partial<typeof CLIENT_DEFAULTS> {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const named = new Set([...new URLSearchParams(query).keys()].map((key) => key.toLowerCase()));
  return Object.fromEntries(Object.entries(CLIENT_DEFAULTS).filter(([key]) => !named.has(key.toLowerCase())));
}

/** Connects, then declares the service's indexes (idempotent: existing ones are left as they are). */
export async function connectMongo(options: { url: string; database: string; indexes?: IndexDeclaration[]; appName?: string }): Promise<MongoConnection> {
  const client = new MongoClient(options.url, { appName: options.appName, ...clientDefaultsFor(options.url) });
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
