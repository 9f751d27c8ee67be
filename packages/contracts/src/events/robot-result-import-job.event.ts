import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../schemas/common.schema';

// Work message of the `robot-broker.robot-result-import` queue.

export const RobotResultImportJob = Type.Object({ job_id: Uuid(), robot_enhancement_batch_id: Uuid() }, { $id: 'RobotResultImportJob' });
export type RobotResultImportJob = Static<typeof RobotResultImportJob>;
