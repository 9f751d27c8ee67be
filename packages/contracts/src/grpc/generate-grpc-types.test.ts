import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GENERATED_GRPC_DIR, generateGrpcTypes } from './generate-grpc-types';
import { loadDestinyProtos } from './proto-files';

function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('gRPC definitions', () => {
  it('when the protos are regenerated, then the committed TypeScript types are identical', () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-grpc-types-'));
    generateGrpcTypes(fresh);
    const committed = listFiles(GENERATED_GRPC_DIR);
    expect(listFiles(fresh)).toEqual(committed);
    for (const file of committed) {
      expect(`${file}\n${fs.readFileSync(path.join(fresh, file), 'utf8')}`).toBe(`${file}\n${fs.readFileSync(path.join(GENERATED_GRPC_DIR, file), 'utf8')}`);
    }
    fs.rmSync(fresh, { recursive: true, force: true });
  });

  it('when the protos are loaded, then every service exposes its RPCs', () => {
    const protos = loadDestinyProtos();
    expect(Object.keys(protos.destiny.import_service.ImportService.service)).toContain('RegisterImportBatch');
    expect(Object.keys(protos.destiny.dedup_service.DedupService.service)).toContain('IngestReferences');
    expect(Object.keys(protos.destiny.robot_broker.RobotBroker.service)).toContain('PollRobotEnhancementBatch');
    expect(Object.keys(protos.destiny.search_request_service.SearchRequestService.service)).toContain('SearchReferences');
    expect(Object.keys(protos.destiny.percolator.Percolator.service)).toContain('CreateAutomation');
  });
});
