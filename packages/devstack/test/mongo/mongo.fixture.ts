// Starts the stand-in in-process on an ephemeral port with a connected official driver client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Binary, type Db, type ObjectId } from 'mongodb';
import { startMongo, type RunningMongo } from '../../src/mongo';

export interface MongoFixture {
  server: RunningMongo;
  client: MongoClient;
  db: Db;
  dataDir?: string;
}

const createdDirs: string[] = [];

export function temporaryDataDir(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-mongo-'));
  createdDirs.push(directory);
  return directory;
}

/** Deletes the data folders this test file created (call from afterAll). */
export function removeTemporaryDataDirs(): void {
  for (const directory of createdDirs.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
}

export async function openFixture(options: { dataDir?: string; database?: string } = {}): Promise<MongoFixture> {
  const server = await startMongo({ port: 0, dataDir: options.dataDir });
  const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  return { server, client, db: client.db(options.database ?? 'test'), dataDir: options.dataDir };
}

export async function closeFixture(fixture: MongoFixture | undefined): Promise<void> {
  if (!fixture) return;
  await fixture.client.close();
  await fixture.server.stop();
}

/** A document whose _id may be of any BSON type (the driver's default typing assumes ObjectId). */
export interface Loose {
  _id?: string | number | ObjectId | Binary | Record<string, unknown>;
  // The driver's update-operator typings need `any` fields to accept arbitrary test documents.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}
