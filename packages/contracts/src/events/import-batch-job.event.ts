import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../schemas/common.schema';

// Work message of the `import-service.import-batch` queue.

export const ImportBatchJob = Type.Object(
  {
    job_id: Uuid(),
    import_batch_id: Uuid(),
    /** Physical line (1-based) to resume from after a crash or a transport retry. */
    resume_from_line: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { $id: 'ImportBatchJob' },
);
export type ImportBatchJob = Static<typeof ImportBatchJob>;
