import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { GrpcServer } from '@destiny/platform';
import type { ImportRecordUsecases } from '../../usecases/import-records.usecase';

export function registerImportGrpc(grpc: GrpcServer, usecases: ImportRecordUsecases, options: { recordsPageBytes: number; resultsPageBytes: number }): void {
  const protos = loadDestinyProtos();
  const one = (value: unknown) => ({ json: JSON.stringify(value) });
  const many = (values: unknown[]) => ({ json: values.map((value) => JSON.stringify(value)) });
  grpc.addService(protos.destiny.import_service.ImportService.service, {
    CreateImportRecord: async (request: { json: string }) => one(await usecases.createRecord(request.json)),
    GetImportRecord: async (request: { id: string }) => one(await usecases.getRecord(request.id)),
    ListImportRecords: async (request: { limit: number; before_id: string }) => {
      const page = await usecases.listRecordsPage(request.limit, request.before_id, options.recordsPageBytes);
      return { json: page.json, more: page.more, last_id: page.lastId };
    },
    RegisterImportBatch: async (request: { import_record_id: string; batch_json: string }) => one(await usecases.registerBatch(request.import_record_id, request.batch_json)),
    ListImportBatches: async (request: { id: string }) => many(await usecases.listBatches(request.id)),
    GetImportBatch: async (request: { import_record_id: string; import_batch_id: string }) => one(await usecases.getBatch(request.import_record_id, request.import_batch_id)),
    GetImportBatchSummary: async (request: { import_record_id: string; import_batch_id: string }) => {
      const page = await usecases.getSummaryPage(request.import_record_id, request.import_batch_id, options.resultsPageBytes);
      return { json: JSON.stringify(page.summary), more: page.more, last_line: page.lastLine };
    },
    ListImportFailureDetails: async (request: { import_record_id: string; import_batch_id: string; after_line: number }) => {
      const page = await usecases.listFailureDetailsPage(request.import_record_id, request.import_batch_id, request.after_line, options.resultsPageBytes);
      return { failure_details: page.details, more: page.more, last_line: page.lastLine };
    },
    ListImportResults: async (request: { import_record_id: string; import_batch_id: string; result_status: string; after_line: number }) => {
      const page = await usecases.listResultsPage(request.import_record_id, request.import_batch_id, request.result_status, request.after_line, options.resultsPageBytes);
      return { json: page.json, more: page.more, last_line: page.lastLine };
    },
    FinaliseImportRecord: async (request: { id: string }) => {
      await usecases.finalise(request.id);
      return {};
    },
  });
}
