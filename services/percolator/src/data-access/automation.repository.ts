// Automations in MongoDB: the source of truth (the percolator index is a projection of it).
// The query is kept as JSON text because query DSL keys contain dots (`changeset.identifiers`).
import crypto from 'node:crypto';
import type { IndexDeclaration } from '@destiny/platform';
import { MongoServerError, type Collection, type Db } from 'mongodb';
import { canonicalJson, type AutomationRecord } from '../domain/automation';

export const AUTOMATIONS_COLLECTION = 'automations';

export interface AutomationDocument {
  _id: string;
  robot_id: string;
  query_json: string;
  /** sha256 of the query's canonical JSON: (robot_id, query_key) is unique. */
  query_key: string;
  created_at: Date;
  updated_at: Date;
}

export const AUTOMATION_INDEXES: IndexDeclaration[] = [
  { collection: AUTOMATIONS_COLLECTION, keys: { robot_id: 1, query_key: 1 }, options: { unique: true, name: 'robot_query_unique' } },
];

export function queryKey(query: Record<string, unknown>): string {
  return crypto.createHash('sha256').update(canonicalJson(query)).digest('hex');
}

function toRecord(document: AutomationDocument): AutomationRecord {
  return { id: document._id, robot_id: document.robot_id, query: JSON.parse(document.query_json) as Record<string, unknown> };
}

export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

export class AutomationRepository {
  readonly collection: Collection<AutomationDocument>;

  constructor(db: Db) {
    this.collection = db.collection<AutomationDocument>(AUTOMATIONS_COLLECTION);
  }

  async get(id: string): Promise<AutomationRecord | null> {
    const document = await this.collection.findOne({ _id: id });
    return document ? toRecord(document) : null;
  }

  async list(): Promise<AutomationRecord[]> {
    return (await this.collection.find({}).sort({ _id: 1 }).toArray()).map(toRecord);
  }

  /** The automation already registered with this (robot, query), if any. */
  async findSame(robotId: string, query: Record<string, unknown>): Promise<AutomationRecord | null> {
    const document = await this.collection.findOne({ robot_id: robotId, query_key: queryKey(query) });
    return document ? toRecord(document) : null;
  }

  /** Inserts; a duplicate (robot, query) raises the driver's duplicate-key error. */
  async insert(automation: AutomationRecord, now = new Date()): Promise<void> {
    await this.collection.insertOne({ _id: automation.id, robot_id: automation.robot_id, query_json: JSON.stringify(automation.query), query_key: queryKey(automation.query), created_at: now, updated_at: now });
  }

  async replace(automation: AutomationRecord, now = new Date()): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: automation.id },
      { $set: { robot_id: automation.robot_id, query_json: JSON.stringify(automation.query), query_key: queryKey(automation.query), updated_at: now } },
    );
    return result.matchedCount === 1;
  }

  async ids(): Promise<Set<string>> {
    return new Set((await this.collection.find({}, { projection: { _id: 1 } }).toArray()).map((document) => document._id));
  }
}
