// Regenerates the TypeScript types of protos/ into src/generated/grpc (`npm run build` then
// `node packages/contracts/dist/grpc/generate-grpc-types.js [outDir]`). A test compares a fresh
// generation with the committed files so the two never drift.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PROTO_FILES, PROTO_ROOT } from './proto-files';

export const GENERATED_GRPC_DIR = path.resolve(__dirname, '..', '..', 'src', 'generated', 'grpc');

export function generateGrpcTypes(outDir: string = GENERATED_GRPC_DIR): void {
  const cli = require.resolve('@grpc/proto-loader/build/bin/proto-loader-gen-types.js');
  execFileSync(
    process.execPath,
    [
      cli,
      '--keepCase',
      '--longs=String',
      '--enums=String',
      '--defaults',
      '--oneofs',
      '--grpcLib=@grpc/grpc-js',
      `--outDir=${outDir}`,
      ...PROTO_FILES,
      '-I',
      path.basename(PROTO_ROOT),
    ],
    // A relative include dir keeps absolute checkout paths out of the generated headers.
    { cwd: path.dirname(PROTO_ROOT), stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

if (require.main === module) generateGrpcTypes(process.argv[2]);
