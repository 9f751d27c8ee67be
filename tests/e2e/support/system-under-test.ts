import { startApiGateway, type RunningApiGateway } from '@destiny/api-gateway';
import { robotAuthHeaders, uuidv7 } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { startDedupService } from '@destiny/dedup-service';
import { requestDevelopmentToken, startIdentityProcess, type RunningIdentityProcess } from '@destiny/devstack/identity';
import { startTestInfrastructure, type TestInfrastructure } from '@destiny/devstack/testing';
import { startImportService } from '@destiny/import-service';
import { startPercolator } from '@destiny/percolator';
import { callUnary, createGrpcClient, type RunningBackendService } from '@destiny/platform';
import { startRobotBroker } from '@destiny/robot-broker';
import { startSearchRequestService } from '@destiny/search-request-service';
import { ensureDevstackBuilt } from '../../../packages/devstack/test/identity/devstack.build';
import { startTestIssuer, type TestIssuer } from '../../../services/api-gateway/test/support/test-issuer';

export type ServiceName = 'dedup-service' | 'robot-broker' | 'search-request-service' | 'percolator' | 'import-service';

export interface SystemUnderTestOptions {
  /** Names the temp folder and the RabbitMQ namespace. */
  label: string;
  /** Started in dependency order (dedup-service first, robot-broker before its callers) whatever the order given. */
  services: ServiceName[];
  /** Extra variables per service, on top of the infrastructure's and the other services' addresses. */
  env?: Partial<Record<ServiceName, Record<string, string>>>;
  /**
   * Who signs the gateway's tokens: the identity stand-in (default; gives `identity` and `admin`),
   * or the api-gateway tests' issuer minting any roles (gives `issuer`).
   */
  auth?: 'identity' | 'test-issuer';
  /**
   * Services run elsewhere (e.g. a child process the test kills and restarts) by their gRPC
   * address: the gateway and the services started here reach them there.
   */
  external?: Partial<Record<ServiceName, string>>;
}

/** A robot as registration returns it. */
export interface Provisioned {
  id: string;
  client_secret: string;
}

export interface SignOptions {
  secret?: string;
  clientId?: string;
  timestamp?: number;
}

export interface SystemUnderTest {
  gateway: RunningApiGateway;
  /** The stand-ins' and started services' variables, for a service the test runs as its own process. */
  env: NodeJS.ProcessEnv;
  /** Only with `auth: 'identity'` (throws otherwise). */
  identity: RunningIdentityProcess;
  /** The admin's bearer header from the identity stand-in; only with `auth: 'identity'`. */
  admin: Record<string, string>;
  /** Only with `auth: 'test-issuer'` (throws otherwise). */
  issuer: TestIssuer;
  /** `host:port` of a started service's gRPC server. */
  address(service: ServiceName): string;
  url(route: string): string;
  /** A JSON request as the admin. */
  bearer(method: string, body?: unknown): RequestInit;
  /** What a robot sends: the exact body bytes it signs. */
  signed(robot: Provisioned, method: string, body?: string, options?: SignOptions): RequestInit;
  register(name: string, description?: string): Promise<Provisioned>;
  /** Stores references through dedup-service's IngestReferences and returns their ids in order. */
  ingest(references: unknown[]): Promise<string[]>;
  stop(): Promise<void>;
}

const START_ORDER: ServiceName[] = ['dedup-service', 'robot-broker', 'search-request-service', 'percolator', 'import-service'];
const STARTERS: Record<ServiceName, (env: NodeJS.ProcessEnv) => Promise<RunningBackendService>> = {
  'dedup-service': (env) => startDedupService(env),
  'robot-broker': (env) => startRobotBroker(env),
  'search-request-service': (env) => startSearchRequestService(env),
  percolator: (env) => startPercolator(env),
  'import-service': (env) => startImportService(env),
};
/** The variable every other service and the gateway read a service's address from. */
const ADDRESS_VARIABLE: Record<ServiceName, string> = {
  'dedup-service': 'DEDUP_SERVICE_GRPC_URL',
  'robot-broker': 'ROBOT_BROKER_GRPC_URL',
  'search-request-service': 'SEARCH_REQUEST_SERVICE_GRPC_URL',
  percolator: 'PERCOLATOR_GRPC_URL',
  'import-service': 'IMPORT_SERVICE_GRPC_URL',
};

/**
 * The stand-ins, the identity stand-in (a child process, oidc-provider being ESM), the chosen
 * services in-process and the gateway in front of them, with the request helpers a test of the
 * public API needs.
 */
export async function startSystemUnderTest(options: SystemUnderTestOptions): Promise<SystemUnderTest> {
  const auth = options.auth ?? 'identity';
  if (auth === 'identity') ensureDevstackBuilt();
  const started: RunningBackendService[] = [];
  const addresses: Record<string, string> = Object.fromEntries(Object.entries(options.external ?? {}).map(([name, address]) => [ADDRESS_VARIABLE[name as ServiceName], address]));
  let infrastructure: TestInfrastructure | undefined;
  let identity: RunningIdentityProcess | undefined;
  let issuer: TestIssuer | undefined;
  let gateway: RunningApiGateway | undefined;
  const stop = async () => {
    await gateway?.stop();
    for (const service of started.reverse()) await service.stop();
    await Promise.all([infrastructure?.stop(), identity?.stop(), issuer?.stop()]);
  };
  try {
    [infrastructure, identity, issuer] = await Promise.all([
      startTestInfrastructure(options.label),
      auth === 'identity' ? startIdentityProcess() : undefined,
      auth === 'test-issuer' ? startTestIssuer() : undefined,
    ]);
    const signer = (identity ?? issuer)!;
    for (const name of START_ORDER.filter((service) => options.services.includes(service))) {
      const service = await STARTERS[name]({ ...infrastructure.env, ...addresses, ...options.env?.[name] });
      started.push(service);
      addresses[ADDRESS_VARIABLE[name]] = `127.0.0.1:${service.grpcPort}`;
    }
    gateway = await startApiGateway({
      PORT: '0',
      HEALTH_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      AUTH_ISSUER: signer.issuer,
      AUTH_JWKS_URL: signer.jwksUrl,
      AUTH_AUDIENCE: signer.audience,
      // Signs full-text download URLs for the stand-in blob store.
      BLOB_ENDPOINT: infrastructure.env.BLOB_ENDPOINT,
      BLOB_ACCESS_KEY: infrastructure.env.BLOB_ACCESS_KEY,
      BLOB_SECRET_KEY: infrastructure.env.BLOB_SECRET_KEY,
      ...addresses,
    });
    const admin = identity ? { authorization: `Bearer ${await requestDevelopmentToken(identity.url, 'admin')}` } : undefined;
    const only = <T>(value: T | undefined, what: string): T => {
      if (value === undefined) throw new Error(`${what} is not available with auth: '${auth}'`);
      return value;
    };
    const running = gateway;
    const address = (service: ServiceName) => {
      const found = addresses[ADDRESS_VARIABLE[service]];
      if (found === undefined) throw new Error(`${service} was not started`);
      return found;
    };
    const url = (route: string) => `${running.url}/v1${route}`;
    const bearer = (method: string, body?: unknown): RequestInit => ({ method, headers: { ...only(admin, 'admin'), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const env = { ...infrastructure.env, ...addresses };
    return {
      gateway,
      env,
      get identity() {
        return only(identity, 'identity');
      },
      get admin() {
        return only(admin, 'admin');
      },
      get issuer() {
        return only(issuer, 'issuer');
      },
      address,
      url,
      bearer,
      signed: (robot, method, body = '', sign = {}) => ({
        method,
        headers: { 'content-type': 'application/json', ...robotAuthHeaders({ secret: sign.secret ?? robot.client_secret, clientId: sign.clientId ?? robot.id, body, timestamp: sign.timestamp }) },
        body: method === 'GET' ? undefined : body,
      }),
      async register(name, description = 'Adds abstracts') {
        const response = await fetch(url('/robots/'), bearer('POST', { name, description, owner: 'Team A' }));
        expect(response.status).toBe(201);
        return (await response.json()) as Provisioned;
      },
      async ingest(references) {
        const client = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, address('dedup-service'));
        try {
          const lines = references.map((reference, n) => ({ line_number: n + 1, import_result_id: uuidv7(), reference_json: JSON.stringify(reference) }));
          const response = (await callUnary(client, client.IngestReferences.bind(client) as never, { import_batch_id: uuidv7(), collision_strategy: 'fail', lines } as never)) as { outcomes: Array<{ reference_id: string }> };
          return response.outcomes.map((outcome) => outcome.reference_id);
        } finally {
          client.close();
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
