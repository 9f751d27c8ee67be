import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderOpenApiDocument } from './openapi';

// `npm run openapi`: writes packages/contracts/openapi.json (from dist/openapi or src/openapi alike).
export const OPENAPI_FILE = resolve(__dirname, '..', '..', 'openapi.json');

if (require.main === module) {
  writeFileSync(OPENAPI_FILE, renderOpenApiDocument());
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}
