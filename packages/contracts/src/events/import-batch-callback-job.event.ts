import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../schemas/common.schema';

// Work message of the `import-service.batch-callback` queue: a terminal batch whose summary is to
// be POSTed to its callback_url (§8.8). Its own queue, so a slow receiver holds no import slot.

export const ImportBatchCallbackJob = Type.Object(
  {
    job_id: Uuid(),
    import_batch_id: Uuid(),
  },
  { $id: 'ImportBatchCallbackJob' },
);
export type ImportBatchCallbackJob = Static<typeof ImportBatchCallbackJob>;
