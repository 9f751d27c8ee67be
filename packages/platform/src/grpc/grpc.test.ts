import * as grpc from '@grpc/grpc-js';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { PercolatorClient } from '@destiny/contracts/generated/grpc/destiny/percolator/Percolator';
import type { JsonDocument__Output } from '@destiny/contracts/generated/grpc/destiny/common/JsonDocument';
import { MongoClient } from 'mongodb';
import pino from 'pino';
import { ServiceError, type ErrorDetail } from '../errors/service-error';
import { callUnary, checkGrpcHealth, createGrpcClient } from './grpc-client';
import { createGrpcServer, DATABASE_UNAVAILABLE, type GrpcServer } from './grpc-server';

const protos = loadDestinyProtos();
const logger = pino({ level: 'silent' });

describe('gRPC server and client helpers', () => {
  let server: GrpcServer;
  let address: string;
  let client: PercolatorClient;

  beforeAll(async () => {
    server = createGrpcServer({ host: '127.0.0.1', port: 0, logger });
    server.addService(protos.destiny.percolator.Percolator.service, {
      CreateAutomation: async (request: { json: string }) => ({ json: JSON.stringify({ echoed: JSON.parse(request.json) }) }),
      GetAutomation: async (request: { id: string }) => {
        if (request.id === 'database-away') {
          // Nothing listens on port 1: the driver gives up selecting a server.
          const unreachable = new MongoClient('mongodb://127.0.0.1:1', { serverSelectionTimeoutMS: 200 });
          try {
            return await unreachable.db('any').collection('any').findOne({});
          } finally {
            await unreachable.close();
          }
        }
        // A JSON id names the error to raise: status and detail.
        if (request.id.startsWith('{')) {
          const { status, detail } = JSON.parse(request.id) as { status: number; detail: ErrorDetail };
          throw new ServiceError(status, detail);
        }
        throw ServiceError.notFound('RobotAutomation', request.id);
      },
      ListAutomations: async () => {
        throw new Error('database exploded');
      },
      UpdateAutomation: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
        return { json: '{}' };
      },
    });
    const port = await server.start();
    address = `127.0.0.1:${port}`;
    client = createGrpcClient(protos.destiny.percolator.Percolator, address);
  });

  afterAll(async () => {
    client.close();
    await server.stop(100);
  });

  it('when the server is not yet marked serving, then the health check says so, and after it says serving', async () => {
    expect(await checkGrpcHealth(address)).toBe(false);
    server.setServing(true);
    expect(await checkGrpcHealth(address)).toBe(true);
  });

  it('when a handler answers, then the client receives the response', async () => {
    const response = await callUnary<{ json: string }, JsonDocument__Output>(client, client.CreateAutomation, { json: '{"a":1}' });
    expect(JSON.parse(response.json)).toEqual({ echoed: { a: 1 } });
  });

  it('when a handler throws a ServiceError, then the client gets the same status and detail', async () => {
    await expect(callUnary(client, client.GetAutomation, { id: 'abc' })).rejects.toMatchObject({ httpStatus: 404, detail: 'RobotAutomation with id abc does not exist.' });
  });

  const raise = (status: number, detail: ErrorDetail): Promise<ServiceError> =>
    callUnary(client, client.GetAutomation, { id: JSON.stringify({ status, detail }) }, { deadlineMs: 5000 }).then(
      () => {
        throw new Error('the call was expected to fail');
      },
      (caught: unknown) => caught as ServiceError,
    );

  it('when a detail holds non-ASCII text or a lone surrogate (echoed user input), then it arrives unchanged', async () => {
    const detail = 'Robot with name Café ☕ 名前 \ud800 already exists.';
    expect(await raise(409, detail)).toMatchObject({ httpStatus: 409, detail });
  });

  it('when a detail is larger than a trailer can carry, then a shortened one arrives with the status instead of no answer', async () => {
    const long = await raise(409, `Robot with name ${'n'.repeat(100_000)} already exists.`);
    expect(long).toMatchObject({ httpStatus: 409, detail: expect.stringMatching(/^Robot with name n+… \(truncated\)$/) });
    const issues = Array.from({ length: 5000 }, (_, index) => ({ type: 'string_type', loc: ['body', index], msg: 'Input should be a valid string', input: { big: 'x'.repeat(index === 0 ? 100_000 : 10) } }));
    const many = await raise(422, issues);
    expect(many.httpStatus).toBe(422);
    const received = many.detail as typeof issues;
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(issues.length);
    expect(received[0]).toMatchObject({ type: 'string_type', loc: ['body', 0], msg: 'Input should be a valid string', input: expect.stringMatching(/… \(truncated\)$/) });
    expect(received[1]).toEqual(issues[1]);
  });

  it('when a handler fails unexpectedly, then the client gets a 500 without internals', async () => {
    const error = (await callUnary(client, client.ListAutomations, {}).catch((caught: unknown) => caught)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.httpStatus).toBe(500);
    expect(error.detail).toBe('Internal Server Error');
  });

  it('when a handler meets the database unreachable, then the client gets a 503 it can retry on', async () => {
    await expect(callUnary(client, client.GetAutomation, { id: 'database-away' })).rejects.toMatchObject({ httpStatus: 503, detail: DATABASE_UNAVAILABLE });
  });

  it('when the server does not serve the method, then the call fails with 501', async () => {
    const other = createGrpcClient(protos.destiny.robot_broker.RobotBroker, address);
    try {
      await expect(callUnary(other, (other as unknown as Record<string, never>).GetRobot, { id: 'x' })).rejects.toMatchObject({ httpStatus: 501 });
    } finally {
      other.close();
    }
  });

  it('when the deadline passes, then the call fails with 504', async () => {
    await expect(callUnary(client, client.UpdateAutomation, { automation_id: 'x', json: '{}' }, { deadlineMs: 50 })).rejects.toMatchObject({ httpStatus: 504 });
  });

  it('when nothing listens at the address, then the call fails with 503 and health is false', async () => {
    const unreachable = createGrpcClient(protos.destiny.percolator.Percolator, '127.0.0.1:1');
    await expect(callUnary(unreachable, unreachable.GetAutomation, { id: 'x' }, { deadlineMs: 2000 })).rejects.toMatchObject({ httpStatus: expect.any(Number) });
    unreachable.close();
    expect(await checkGrpcHealth('127.0.0.1:1', 500)).toBe(false);
  });

  it('when an unknown method is registered, then adding the service fails loudly', () => {
    const other = createGrpcServer({ host: '127.0.0.1', port: 0, logger });
    expect(() => other.addService(protos.destiny.percolator.Percolator.service, { NoSuchMethod: async () => ({}) })).toThrow(/NoSuchMethod/);
  });

  it('when a metadata value is sent, then the handler sees it', async () => {
    const metadata = new grpc.Metadata();
    metadata.set('x-test', 'yes');
    await expect(callUnary(client, client.CreateAutomation, { json: '{}' }, { metadata })).resolves.toBeDefined();
  });
});
