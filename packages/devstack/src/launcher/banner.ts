import type { RunningEmbeddedSystem } from './embedded-system';

/** What `npm start` prints once everything answers. */
export function startupBanner(system: Pick<RunningEmbeddedSystem, 'apiUrl' | 'bus' | 'summary'> & Partial<Pick<RunningEmbeddedSystem, 'serviceThreads'>>, dataDir: string): string {
  const { apiUrl, summary } = system;
  return [
    '',
    'DESTINY Reference Enhancement Repository is running.',
    '',
    `  API            ${apiUrl}/v1/`,
    `  API docs       ${apiUrl}/v1/docs/`,
    `  Healthcheck    ${apiUrl}/v1/system/healthcheck/`,
    `  Data folder    ${dataDir}`,
    `  Message bus    ${system.bus === 'rabbitmq' ? 'RabbitMQ' : 'in-process (no RabbitMQ reachable)'}`,
    // The cluster layout runs each service as a process, so it has no thread line.
    ...(system.serviceThreads ? [`  Own threads    ${system.serviceThreads.length > 0 ? system.serviceThreads.join(', ') : 'none (all services on the main thread)'}  (DESTINY_SERVICE_THREADS)`] : []),
    `  MongoDB        ${summary.mongo}`,
    `  Search         ${summary.search}`,
    `  Blob store     ${summary.blob}  (access key ${summary.blobAccessKey}, secret ${summary.blobSecretKey})`,
    `  Identity       ${summary.identity}/realms/destiny`,
    '',
    'First steps:',
    '  1. Get a token:        TOKEN=$(npm run --silent token)        (a reader: npm run --silent token -- --client reader)',
    `  2. Register a robot:   curl -s -X POST ${apiUrl}/v1/robots/ -H "Authorization: Bearer $TOKEN" \\`,
    `                           -H 'Content-Type: application/json' -d '{"name":"my-robot","description":"adds abstracts","owner":"me"}'`,
    `  3. Import a file:      curl -s -X POST ${apiUrl}/v1/imports/records/ -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\`,
    `                           -d '{"processor_name":"me","processor_version":"1","expected_reference_count":-1,"source_name":"demo"}'`,
    `                         then POST {"storage_url": "<URL of a JSONL file>"} to ${apiUrl}/v1/imports/records/<id>/batches/`,
    '',
    'Press Ctrl-C to stop; data is kept for the next start.',
    '',
  ].join('\n');
}
