import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, type RobotDocument, type RobotPollShape } from './collections';

/** The kind of poll each robot last made, kept on its robot document so any replica can prepare for it. */
export function createRobotPollRepository(db: Db) {
  const robots: Collection<RobotDocument> = db.collection(COLLECTIONS.robots);
  return {
    async record(robotId: string, shape: RobotPollShape): Promise<void> {
      await robots.updateOne({ _id: robotId }, { $set: { last_poll: shape } });
    },
    async lastPoll(robotId: string): Promise<RobotPollShape | null> {
      return (await robots.findOne({ _id: robotId }, { projection: { last_poll: 1 } }))?.last_poll ?? null;
    },
  };
}

export type RobotPollRepository = ReturnType<typeof createRobotPollRepository>;
