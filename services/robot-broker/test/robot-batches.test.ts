import { uuidv7 } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { startDedupService } from '../../dedup-service/src/index';
import { startRobotBroker } from '../src/index';
import { abstractLine, call, callJson, dedupClient, failure, ingestReferences, publishAutomationMatched, robotBrokerClient, startIndexAnnouncer, startInfrastructure, waitFor, type DedupClient, type RobotBrokerClient } from './robot-helpers';

interface Batch {
  id: string;
  reference_storage_url: string;
  result_storage_url: string;
  extra_fields: null;
  validation_result_url?: string | null;
}

const USER = { subject: 'user', roles: ['enhancement_request.writer'], entitlements: [], robot_id: '' };
const WRITER = { subject: 'admin', roles: ['robot.writer'], entitlements: ['robot_entitlement_writer'], robot_id: '' };

describe('robot-broker enhancement requests and robot batches', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let broker: RunningBackendService;
  let client: RobotBrokerClient;
  let references: DedupClient;
  let announcer: Awaited<ReturnType<typeof startIndexAnnouncer>>;
  let mongo: MongoClient;
  let db: Db;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('robot-batches');
    dedup = await startDedupService(infrastructure.env);
    broker = await startRobotBroker({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}` });
    client = robotBrokerClient(broker.grpcPort);
    references = dedupClient(dedup.grpcPort);
    announcer = await startIndexAnnouncer(infrastructure.env.AMQP_NAMESPACE);
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = mongo.db('destiny_robot_broker');
  });

  afterAll(async () => {
    await mongo?.close();
    await announcer?.close();
    client?.close();
    references?.close();
    await broker?.stop();
    await dedup?.stop();
    await infrastructure?.stop();
  });

  const json = <T>(method: string, request: unknown) => callJson<T>(client, method, request);
  const newRobot = (name: string, entitlements: string[] = []) => json<{ id: string; client_secret: string }>('RegisterRobot', { caller: WRITER, json: JSON.stringify({ name, description: 'd', owner: 'o', entitlements }) });
  const request = (robotId: string, referenceIds: string[]) => json<{ id: string; request_status: string }>('CreateEnhancementRequest', { caller: USER, json: JSON.stringify({ robot_id: robotId, reference_ids: referenceIds, source: 'tests' }) });
  const requestStatus = async (id: string) => (await json<{ request_status: string }>('GetEnhancementRequest', { id })).request_status;
  const poll = async (robotId: string, limit = 10, lease = 'PT10M', entitlements: string[] = []): Promise<Batch | null> => {
    const document = await call<{ json: string }>(client, 'PollRobotEnhancementBatch', { caller: { ...USER, entitlements }, robot_id: robotId, limit, lease });
    return document.json === '' ? null : (JSON.parse(document.json) as Batch);
  };
  const download = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return (await response.text()).split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  const upload = async (url: string, lines: string[]) => {
    const response = await fetch(url, { method: 'PUT', body: lines.map((line) => `${line}\n`).join('') });
    expect(response.status).toBe(200);
  };
  const submit = (batchId: string, error: { message: string } | null = null, requestId = batchId) =>
    json<{ id: string; robot_id: string; error: string | null; validation_result_url: string | null }>('SubmitRobotEnhancementBatchResult', { caller: USER, id: batchId, json: JSON.stringify({ request_id: requestId, error }) });
  const rowsOf = (batchId: string) => db.collection('pending_enhancements').find({ robot_enhancement_batch_id: batchId }).toArray();
  const views = async (ids: string[]) => (await call<{ json: string[] }>(references, 'GetDeduplicatedViews', { ids })).json.map((text) => JSON.parse(text) as { id: string; enhancements: Array<{ source: string; content: { enhancement_type: string } }> });

  it('when a robot runs the whole loop, then enhancements are stored once, the validation file lists every line and the request status follows each step', async () => {
    const refs = await ingestReferences(references, 5, 'loop');
    const robot = await newRobot('loop-bot');
    expect(await failure(request('01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f', refs))).toEqual({ status: 422, detail: 'Robot with id 01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f does not exist.' });
    const ghost = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60';
    expect(await failure(request(robot.id, [refs[0], ghost]))).toEqual({ status: 422, detail: `Reference with id [${ghost}] does not exist.` });
    expect((await failure(request(robot.id, [refs[0], refs[0]]))).status).toBe(422);

    const created = await request(robot.id, refs);
    expect(created.request_status).toBe('received');
    expect(await requestStatus(created.id)).toBe('received');

    const batch = (await poll(robot.id, 10))!;
    expect(Object.keys(batch).sort()).toEqual(['extra_fields', 'id', 'reference_storage_url', 'result_storage_url']);
    expect(await requestStatus(created.id)).toBe('processing');
    const file = await download(batch.reference_storage_url);
    expect(file.map((line) => line.id).sort()).toEqual([...refs].sort());
    expect(Object.keys(file[0])).toEqual(['visibility', 'id', 'identifiers', 'enhancements']);

    const [r0, r1, r2, r3, r4] = refs;
    const raw = JSON.stringify({ reference_id: r3, source: 'abstract-bot', visibility: 'public', content: { enhancement_type: 'raw', source_export_date: '2026-01-01T00:00:00Z', description: 'x', data: { a: 1 } } });
    await upload(batch.result_storage_url, [abstractLine(r0), JSON.stringify({ reference_id: r1, message: 'No abstract available from any source.' }), '', abstractLine(r2), abstractLine(r2, 'again'), abstractLine(ghost), 'not json', raw]);
    expect(await failure(submit(batch.id, null, ghost))).toEqual({ status: 400, detail: 'Request ID mismatch' });

    announcer.hold();
    const accepted = await submit(batch.id);
    expect(accepted).toMatchObject({ id: batch.id, robot_id: robot.id, error: null, validation_result_url: null });
    const imported = await waitFor(async () => (await json<Batch>('GetRobotEnhancementBatch', { id: batch.id })).validation_result_url, 'the import');
    expect(await requestStatus(created.id)).toBe('indexing');
    const validation = await download(imported);
    expect(validation).toEqual([
      { reference_id: r0 },
      { reference_id: r1, error: 'No abstract available from any source.' },
      { reference_id: r2 },
      { reference_id: r2, error: 'Duplicate reference ID in enhancement result.' },
      { reference_id: ghost, error: 'Reference not in batch enhancement request.' },
      { error: expect.stringMatching(/^Entry 6 could not be parsed: .+\.$/) },
      { reference_id: r3, error: 'Robot is not entitled to return raw enhancements.' },
      { reference_id: r4, error: 'Requested reference not in enhancement result.' },
    ]);
    const statuses = Object.fromEntries((await rowsOf(batch.id)).map((row) => [row.reference_id as string, row.status as string]));
    expect(statuses).toEqual({ [r0]: 'indexing', [r1]: 'failed', [r2]: 'indexing', [r3]: 'failed', [r4]: 'failed' });

    await announcer.release();
    await waitFor(async () => (await requestStatus(created.id)) === 'partial_failed', 'partial_failed once indexed');
    const stored = await views([r0, r2, r4]);
    expect(stored.map((view) => view.enhancements.filter((enhancement) => enhancement.source === 'abstract-bot').length)).toEqual([1, 1, 0]);
    // Renewing or resubmitting a finished batch is refused.
    expect(await failure(call(client, 'RenewRobotEnhancementBatchLease', { robot_enhancement_batch_id: batch.id, lease: 'PT10M' }))).toEqual({
      status: 409,
      detail: 'This batch has no pending enhancements. They may have already expired or been completed.',
    });
    expect(await failure(submit(batch.id))).toEqual({ status: 422, detail: expect.stringMatching(/^Cannot process results: Cannot transition from status '(indexing|failed|completed)' to 'importing'$/) });
    expect(await poll(robot.id)).toBeNull();
  });

  it('when a robot reports a whole-batch error, then the batch and its pending enhancements fail and the request is failed', async () => {
    const refs = await ingestReferences(references, 3, 'batch-error');
    const robot = await newRobot('error-bot');
    const created = await request(robot.id, refs);
    const batch = (await poll(robot.id))!;
    const read = await submit(batch.id, { message: 'robot crashed' });
    expect(read).toMatchObject({ id: batch.id, robot_id: robot.id, error: 'robot crashed' });
    expect(await requestStatus(created.id)).toBe('failed');
    expect((await rowsOf(batch.id)).map((row) => row.status)).toEqual(['failed', 'failed', 'failed']);
  });

  it('when ten pollers of one robot poll at once, then no pending enhancement is in two batches and no batch holds a reference twice', async () => {
    const refs = await ingestReferences(references, 150, 'concurrent');
    const robot = await newRobot('busy-bot');
    // Two requests over the same references: two pending enhancements per reference.
    await request(robot.id, refs);
    await request(robot.id, refs);
    const batches = (await Promise.all(Array.from({ length: 10 }, () => poll(robot.id, 40)))).filter((batch): batch is Batch => batch !== null);
    let claimed = 0;
    for (const batch of batches) {
      const rows = await rowsOf(batch.id);
      const lines = await download(batch.reference_storage_url);
      expect(new Set(lines.map((line) => line.id)).size).toBe(lines.length);
      expect(lines.map((line) => line.id).sort()).toEqual(rows.map((row) => row.reference_id as string).sort());
      claimed += rows.length;
    }
    // A full batch has the robot's next one prepared ahead: its rows are claimed by a batch no
    // client has seen yet. Rows are read before batches, so every batch a row names is found.
    const rows = (await db.collection('pending_enhancements').find({ robot_id: robot.id }).toArray()) as unknown as Array<{ status: string; robot_enhancement_batch_id: string | null }>;
    const statusOf = new Map((await db.collection('robot_enhancement_batches').find({ robot_id: robot.id }).toArray()).map((batch) => [String(batch._id), batch.status as string]));
    const handedOut = new Set(batches.map((batch) => batch.id));
    const processing = rows.filter((row) => row.status === 'processing');
    expect(processing.filter((row) => handedOut.has(row.robot_enhancement_batch_id!))).toHaveLength(claimed);
    expect(processing.filter((row) => !handedOut.has(row.robot_enhancement_batch_id!)).every((row) => ['preparing', 'prepared'].includes(statusOf.get(row.robot_enhancement_batch_id!)!))).toBe(true);
    expect(claimed).toBeGreaterThan(0);
    expect(rows.filter((row) => row.status === 'pending' && row.robot_enhancement_batch_id === null).length + processing.length).toBe(300);
  });

  it('when a lease passes, then results are refused with 422, renewal is refused with 409 and the next poll gets replacements', async () => {
    const refs = await ingestReferences(references, 3, 'lease');
    const robot = await newRobot('slow-bot');
    const created = await request(robot.id, refs);
    expect((await failure(poll(robot.id, 10, 'PT0S'))).status).toBe(422);
    const batch = (await poll(robot.id, 10, 'PT1S'))!;
    const renewed = await json<string>('RenewRobotEnhancementBatchLease', { robot_enhancement_batch_id: batch.id, lease: 'PT2S' });
    expect(renewed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    const unknown = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60';
    expect(await failure(call(client, 'RenewRobotEnhancementBatchLease', { robot_enhancement_batch_id: unknown, lease: 'PT1M' }))).toEqual({
      status: 422,
      detail: `RobotEnhancementBatch with id [${unknown}] does not exist.`,
    });
    await new Promise((resolve) => setTimeout(resolve, Date.parse(renewed) - Date.now() + 50));
    expect(await failure(submit(batch.id))).toEqual({ status: 422, detail: "Cannot process results: Cannot transition from status 'expired' to 'importing'" });
    expect(await failure(call(client, 'RenewRobotEnhancementBatchLease', { robot_enhancement_batch_id: batch.id, lease: 'PT1M' }))).toEqual({
      status: 409,
      detail: 'This batch has no pending enhancements. They may have already expired or been completed.',
    });
    const next = (await poll(robot.id, 10))!;
    expect(next.id).not.toBe(batch.id);
    const replacements = await rowsOf(next.id);
    const originals = await rowsOf(batch.id);
    expect(originals.map((row) => row.status)).toEqual(['expired', 'expired', 'expired']);
    expect(replacements.map((row) => row.retry_of as string).sort()).toEqual(originals.map((row) => row._id as unknown as string).sort());
    expect(await requestStatus(created.id)).toBe('processing');
  });

  it('when pending enhancements are created for a chunk twice, then the retry adds nothing; counts are per status', async () => {
    const refs = await ingestReferences(references, 4, 'chunks');
    const robot = await newRobot('chunk-bot');
    const requestId = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e61';
    const input = { robot_id: robot.id, reference_ids: refs, enhancement_request_id: requestId, source: '', chunk_key: `${requestId}:0` };
    expect(await call(client, 'CreatePendingEnhancements', input)).toEqual({ created: 4 });
    expect(await call(client, 'CreatePendingEnhancements', input)).toEqual({ created: 0 });
    const automation = { robot_id: robot.id, reference_ids: refs.slice(0, 2), enhancement_request_id: '', source: 'RobotAutomation:x', chunk_key: 'automation-1' };
    expect(await call(client, 'CreatePendingEnhancements', automation)).toEqual({ created: 2 });
    expect(await call(client, 'CreatePendingEnhancements', automation)).toEqual({ created: 0 });
    await poll(robot.id, 1);
    expect(await json('GetRequestStatusCounts', { id: requestId })).toEqual({ processing: 1, pending: 3 });
    expect(await json('GetEnhancementRequest', { id: requestId })).toMatchObject({ id: requestId, robot_id: robot.id, reference_ids: [], request_status: 'processing' });
  });

  it('when an automation matches a reference (twice delivered), then its robot gets one pending enhancement with the automation source', async () => {
    const [ref, marker] = await ingestReferences(references, 2, 'automation');
    const robot = await newRobot('automation-bot');
    const event = { event_id: uuidv7(), automation_id: uuidv7(), robot_id: robot.id, reference_id: ref, source: `RobotEnhancementBatch:${uuidv7()}`, occurred_at: new Date().toISOString() };
    // A later event for another reference: once it is in, the repeated one has been handled too.
    await publishAutomationMatched(infrastructure.env.AMQP_NAMESPACE, [event, event, { ...event, event_id: uuidv7(), reference_id: marker }]);
    await waitFor(async () => (await db.collection('pending_enhancements').countDocuments({ robot_id: robot.id, reference_id: marker })) > 0, 'the later event');
    const rows = await db.collection('pending_enhancements').find({ robot_id: robot.id, reference_id: ref }).toArray();
    expect(rows.map((row) => ({ source: row.source, request: row.enhancement_request_id }))).toEqual([{ source: event.source, request: null }]);
    const batch = (await poll(robot.id))!;
    expect((await download(batch.reference_storage_url)).map((line) => line.id).sort()).toEqual([ref, marker].sort());
  });

  it('when a result line carries keys the contract does not declare, then the stored enhancement and the next reference file keep none of them', async () => {
    const [ref] = await ingestReferences(references, 1, 'unknown-keys');
    const robot = await newRobot('unknown-keys-bot');
    await request(robot.id, [ref]);
    const batch = (await poll(robot.id))!;
    const free = { any: { nested: [1, { key: 'kept' }] } };
    const line = {
      reference_id: ref,
      source: 'annotating-bot',
      visibility: 'public',
      confidence: 0.9,
      content: {
        enhancement_type: 'annotation',
        extra_key: 1,
        annotations: [{ annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'relevant', value: true, note: 'x', data: free }],
      },
    };
    await upload(batch.result_storage_url, [JSON.stringify(line)]);
    await submit(batch.id);
    const validationUrl = await waitFor(async () => (await json<Batch>('GetRobotEnhancementBatch', { id: batch.id })).validation_result_url, 'the import');
    expect(await download(validationUrl)).toEqual([{ reference_id: ref }]);
    const expectedContent = { enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'relevant', value: true, score: null, data: free }] };
    const [view] = await views([ref]);
    const stored = view.enhancements.filter((enhancement) => enhancement.source === 'annotating-bot');
    expect(stored.map((enhancement) => [Object.keys(enhancement).sort(), enhancement.content])).toEqual([
      [['content', 'created_at', 'derived_from', 'id', 'reference_id', 'robot_version', 'source', 'visibility'], expectedContent],
    ]);

    const reader = await newRobot('unknown-keys-reader');
    await request(reader.id, [ref]);
    const [fileLine] = await download((await poll(reader.id))!.reference_storage_url);
    const inFile = (fileLine.enhancements as Array<{ source: string; content: unknown }>).filter((enhancement) => enhancement.source === 'annotating-bot');
    // Reference files omit null keys (§1.4).
    const { score: _score, ...inFileAnnotation } = expectedContent.annotations[0];
    expect(inFile.map((enhancement) => enhancement.content)).toEqual([{ ...expectedContent, annotations: [inFileAnnotation] }]);
    expect(JSON.stringify(fileLine)).not.toMatch(/confidence|extra_key|"note"/);
  });

  it('when a result file starts with a byte-order mark and ends its lines with CRLF, then every line is read as JSON', async () => {
    const refs = await ingestReferences(references, 2, 'bom');
    const robot = await newRobot('bom-bot');
    await request(robot.id, refs);
    const batch = (await poll(robot.id))!;
    const response = await fetch(batch.result_storage_url, { method: 'PUT', body: `\ufeff${abstractLine(refs[0])}\r\n${abstractLine(refs[1])}\r\n` });
    expect(response.status).toBe(200);
    await submit(batch.id);
    const validationUrl = await waitFor(async () => (await json<Batch>('GetRobotEnhancementBatch', { id: batch.id })).validation_result_url, 'the import');
    expect(await download(validationUrl)).toEqual([{ reference_id: refs[0] }, { reference_id: refs[1] }]);
  });

  it('when a reference carries a full-text enhancement, then only a caller with full_text sees it in the reference file', async () => {
    const [ref] = await ingestReferences(references, 1, 'full-text');
    const fullText = { reference_id: ref, source: 'pdf-bot', visibility: 'public', content: { enhancement_type: 'full_text', file_url: 'https://files.example/paper.pdf' } };
    const outcomes = await call<{ outcomes: Array<{ status: string }> }>(references, 'AddEnhancements', { enhancements_json: [JSON.stringify(fullText)], robot_id: '', robot_enhancement_batch_id: '', enhancement_request_id: '' });
    expect(outcomes.outcomes[0].status).toBe('stored');
    const robot = await newRobot('reader-bot');
    await request(robot.id, [ref]);
    const hidden = await download((await poll(robot.id, 10, 'PT1S'))!.reference_storage_url);
    expect((hidden[0].enhancements as Array<{ content: { enhancement_type: string } }>).map((item) => item.content.enhancement_type)).toEqual(['bibliographic']);
    await waitFor(async () => (await db.collection('pending_enhancements').countDocuments({ robot_id: robot.id, status: 'pending' })) === 1, 'the replacement after expiry', 10_000);
    const shown = await download((await poll(robot.id, 10, 'PT10M', ['full_text']))!.reference_storage_url);
    expect((shown[0].enhancements as Array<{ content: { enhancement_type: string } }>).map((item) => item.content.enhancement_type)).toEqual(['bibliographic', 'full_text']);
  });
});
