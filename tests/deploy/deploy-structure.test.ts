// No Docker engine runs here, so the stack is validated by its structure: the compose file, the
// Keycloak realm, the collector configuration and the Dockerfile are parsed and checked against
// what the services read (env names, ports, roles) and against each other.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTH_CLIENT_ID,
  DEVELOPMENT_CLIENTS,
  DEVELOPMENT_USER,
  REALM,
  REPOSITORY_CLIENT_ID,
  ROLES as DEVSTACK_ROLES,
} from '@destiny/devstack/identity/development-realm';

const root = path.resolve(__dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');

type Json = Record<string, unknown>;

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | { target: number; published?: string | number })[];
  volumes?: (string | { type?: string; source?: string; target: string })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;
const realm = JSON.parse(read('deploy/keycloak/destiny-realm.json')) as Json;
const dockerfile = read('Dockerfile');

const APP_SERVICES = ['api-gateway', 'import-service', 'dedup-service', 'robot-broker', 'search-request-service', 'percolator'] as const;
const BACKEND_SERVICES = APP_SERVICES.filter((name) => name !== 'api-gateway');
const HEALTHY_INFRASTRUCTURE = ['mongodb', 'elasticsearch', 'rabbitmq', 'minio', 'keycloak'] as const;
const API_CLIENT = 'destiny-repository-client-development';
const ROLES = [
  'reference.reader',
  'reference.full_text.reader',
  'reference.deduplicator',
  'enhancement_request.writer',
  'robot.writer',
  'robot.entitlement.writer',
  'import.writer',
  'administrator',
];

/** The value compose uses when the variable is unset: `${NAME:-default}` → default, `$$` → `$`. */
function interpolateDefaults(value: string): string {
  return value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1').replace(/\$\$/g, '$');
}

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

function environmentOf(name: string): Record<string, string> {
  const environment = service(name).environment ?? {};
  const entries = Array.isArray(environment)
    ? environment.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const)
    : Object.entries(environment).map(([key, value]) => [key, value === null ? '' : String(value)] as const);
  return Object.fromEntries(entries.map(([key, value]) => [key, interpolateDefaults(value)]));
}

function dependencyConditions(name: string): Record<string, string> {
  const dependsOn = service(name).depends_on ?? {};
  if (Array.isArray(dependsOn)) return Object.fromEntries(dependsOn.map((dependency) => [dependency, 'service_started']));
  return Object.fromEntries(Object.entries(dependsOn).map(([dependency, spec]) => [dependency, spec.condition ?? 'service_started']));
}

/** Container ports a service publishes on the host, with the host port. */
function publishedPorts(name: string): { host: number; container: number }[] {
  return (service(name).ports ?? []).map((port) => {
    if (typeof port !== 'string') return { host: Number(port.published ?? port.target), container: port.target };
    const parts = port.split(':');
    const container = Number(parts[parts.length - 1].split('/')[0]);
    return { host: parts.length >= 2 ? Number(parts[parts.length - 2]) : container, container };
  });
}

function healthcheckText(name: string): string {
  const test = service(name).healthcheck?.test ?? [];
  return Array.isArray(test) ? test.join(' ') : test;
}

function commandText(name: string): string {
  const { command = [], entrypoint = [] } = service(name);
  return [entrypoint, command].flat().join(' ');
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? (value.filter((item) => typeof item === 'object' && item !== null) as Json[]) : [];
}

function realmClient(clientId: string): Json {
  const client = objects(realm.clients).find((candidate) => candidate.clientId === clientId);
  if (!client) throw new Error(`realm has no client ${clientId}`);
  return client;
}

function serviceAccountRoles(clientId: string): string[] {
  const user = objects(realm.users).find((candidate) => candidate.serviceAccountClientId === clientId);
  const clientRoles = (user?.clientRoles ?? {}) as Record<string, string[]>;
  return [...(clientRoles[API_CLIENT] ?? [])].sort();
}

function hasAudienceMapper(client: Json): boolean {
  return objects(client.protocolMappers).some((mapper) => {
    const config = (mapper.config ?? {}) as Record<string, string>;
    return mapper.protocolMapper === 'oidc-audience-mapper' && config['included.client.audience'] === API_CLIENT && config['access.token.claim'] === 'true';
  });
}

/** Dockerfile instructions with continuation lines joined and comments dropped. */
function dockerInstructions(): { instruction: string; args: string }[] {
  return dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [instruction, ...rest] = line.split(/\s+/);
      return { instruction: instruction.toUpperCase(), args: rest.join(' ') };
    });
}

/** Instructions grouped by stage (a FROM opens a stage), with each stage's image resolved from ARG defaults. */
function dockerStages(): { name: string; image: string; instructions: { instruction: string; args: string }[] }[] {
  const globalArgs: Record<string, string> = {};
  const stages: { name: string; image: string; instructions: { instruction: string; args: string }[] }[] = [];
  for (const entry of dockerInstructions()) {
    if (entry.instruction === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(entry.args);
      if (!match) throw new Error(`unreadable FROM ${entry.args}`);
      const image = match[1].replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => globalArgs[name] ?? `<unset ${name}>`);
      const earlier = stages.find((stage) => stage.name === image);
      stages.push({ name: match[2] ?? String(stages.length), image: earlier ? earlier.image : image, instructions: [] });
    } else if (stages.length === 0 && entry.instruction === 'ARG') {
      const [name, value] = entry.args.split('=');
      globalArgs[name] = value ?? '';
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(entry);
    }
  }
  return stages;
}

describe('docker-compose.yml infrastructure', () => {
  it('when the compose file is read, then every infrastructure service exists with a healthcheck', () => {
    for (const name of HEALTHY_INFRASTRUCTURE) {
      expect(service(name).image).toEqual(expect.any(String));
      expect(service(name).healthcheck?.disable).not.toBe(true);
      expect(healthcheckText(name)).not.toBe('');
    }
    expect(service('otel-collector').image).toMatch(/opentelemetry-collector/);
    expect(service('jaeger').image).toMatch(/jaeger/);
  });

  it('when MongoDB starts, then it is MongoDB 7 in replica set rs0 and its healthcheck initiates the set', () => {
    expect(service('mongodb').image).toMatch(/^mongo:7(\.|$)/);
    expect(commandText('mongodb')).toMatch(/--replSet rs0\b/);
    expect(healthcheckText('mongodb')).toContain('rs.initiate(');
    expect(healthcheckText('mongodb')).toContain("_id: 'rs0'");
    expect(healthcheckText('mongodb')).toContain("host: 'mongodb:27017'");
  });

  it('when Elasticsearch starts, then it is version 9, single node, without security and with a bounded heap', () => {
    expect(service('elasticsearch').image).toMatch(/elasticsearch:9\.\d+\.\d+$/);
    const environment = environmentOf('elasticsearch');
    expect(environment['discovery.type']).toBe('single-node');
    expect(environment['xpack.security.enabled']).toBe('false');
    expect(environment.ES_JAVA_OPTS).toMatch(/-Xmx\d+[mg]/);
  });

  it('when RabbitMQ, MinIO and Keycloak start, then they run the expected images and setup', () => {
    expect(service('rabbitmq').image).toMatch(/^rabbitmq:4(\.\d+)?-management$/);
    // RabbitMQ 4 refuses messages over 16 MiB unless told otherwise; a large reference's events exceed that.
    expect(service('rabbitmq').volumes).toContain('./deploy/rabbitmq/20-destiny.conf:/etc/rabbitmq/conf.d/20-destiny.conf:ro');
    expect(fs.readFileSync(path.join(root, 'deploy/rabbitmq/20-destiny.conf'), 'utf8')).toMatch(/^max_message_size = 134217728$/m);
    expect(service('minio').image).toMatch(/^minio\/minio:/);
    expect(service('keycloak').image).toMatch(/^quay\.io\/keycloak\/keycloak:\d+/);
    expect(commandText('keycloak')).toMatch(/start-dev.*--import-realm/);
    expect(service('keycloak').volumes).toContain('./deploy/keycloak:/opt/keycloak/data/import:ro');
    expect(environmentOf('keycloak').KC_HOSTNAME).toBe('http://keycloak:8080');
  });

  it('when the stack starts, then a MinIO init job creates the services\' bucket once MinIO is healthy', () => {
    expect(dependencyConditions('minio-init')).toEqual({ minio: 'service_healthy' });
    const script = interpolateDefaults(commandText('minio-init'));
    const bucket = environmentOf('robot-broker').BLOB_BUCKET;
    expect(script).toContain('mc mb --ignore-existing');
    expect(script).toContain(`$BLOB_BUCKET`);
    expect(environmentOf('minio-init').BLOB_BUCKET).toBe(bucket);
    expect(environmentOf('minio-init').MINIO_ROOT_USER).toBe(environmentOf('robot-broker').BLOB_ACCESS_KEY);
    expect(environmentOf('minio').MINIO_ROOT_PASSWORD).toBe(environmentOf('robot-broker').BLOB_SECRET_KEY);
  });

  it('when traces are exported, then the collector receives OTLP on the services\' endpoint and forwards it to Jaeger', () => {
    const collector = parse(read('deploy/otel/collector.yaml')) as Json;
    const receivers = collector.receivers as { otlp: { protocols: { grpc: unknown; http: { endpoint: string } } } };
    expect(receivers.otlp.protocols.grpc).toBeDefined();
    const otlpHttpPort = receivers.otlp.protocols.http.endpoint.split(':').pop();
    for (const name of APP_SERVICES) {
      expect(new URL(environmentOf(name).OTEL_EXPORTER_OTLP_ENDPOINT).port).toBe(otlpHttpPort);
    }
    const exporters = collector.exporters as Record<string, { endpoint: string }>;
    const pipeline = (collector.service as { pipelines: { traces: { receivers: string[]; processors: string[]; exporters: string[] } } }).pipelines.traces;
    expect(pipeline.receivers).toEqual(['otlp']);
    expect(pipeline.processors).toContain('batch');
    const jaegerExporter = pipeline.exporters.map((name) => exporters[name]).find((exporter) => exporter.endpoint.startsWith('jaeger:'));
    expect(jaegerExporter?.endpoint).toBe('jaeger:4317');
    expect(service('otel-collector').volumes).toContain('./deploy/otel/collector.yaml:/etc/otelcol-contrib/config.yaml:ro');
  });
});

describe('docker-compose.yml application services', () => {
  it('when the repository has service folders, then each is in the compose file and built from the one Dockerfile with its SERVICE argument', () => {
    const folders = fs.readdirSync(path.join(root, 'services')).filter((entry) => fs.existsSync(path.join(root, 'services', entry, 'package.json')));
    expect([...folders].sort()).toEqual([...APP_SERVICES].sort());
    for (const name of APP_SERVICES) {
      expect(service(name).build).toEqual({ context: '.', dockerfile: 'Dockerfile', args: { SERVICE: name } });
      expect(healthcheckText(name)).toContain('/livez');
      expect(healthcheckText(name)).toContain('HEALTH_PORT');
    }
  });

  it('when a service starts, then it waits for the healthy infrastructure it uses', () => {
    const expected: Record<(typeof APP_SERVICES)[number], string[]> = {
      'api-gateway': ['rabbitmq', 'keycloak', ...BACKEND_SERVICES],
      'import-service': ['mongodb', 'rabbitmq', 'minio'],
      'dedup-service': ['mongodb', 'rabbitmq'],
      'robot-broker': ['mongodb', 'rabbitmq', 'minio'],
      'search-request-service': ['mongodb', 'rabbitmq', 'elasticsearch'],
      percolator: ['mongodb', 'rabbitmq', 'elasticsearch'],
    };
    for (const name of APP_SERVICES) {
      const conditions = dependencyConditions(name);
      for (const dependency of expected[name]) expect({ name, dependency, condition: conditions[dependency] }).toEqual({ name, dependency, condition: 'service_healthy' });
      expect(conditions['otel-collector']).toBe('service_started');
    }
    for (const name of ['import-service', 'robot-broker']) expect(dependencyConditions(name)['minio-init']).toBe('service_completed_successfully');
  });

  it('when a service starts, then it carries every environment variable its configuration reads', () => {
    const common = {
      OTEL_ENABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
      HEALTH_PORT: '9464',
      AMQP_URL: 'amqp://guest:guest@rabbitmq:5672',
      OUTBOUND_ALLOWLIST: '',
    };
    const blob = {
      BLOB_ENDPOINT: 'http://minio:9000',
      BLOB_PUBLIC_ENDPOINT: 'http://localhost:9000',
      BLOB_ACCESS_KEY: expect.stringMatching(/dev/),
      BLOB_SECRET_KEY: expect.stringMatching(/dev/),
      BLOB_BUCKET: 'destiny',
    };
    const backend = (name: string) => ({
      ...common,
      GRPC_PORT: '50051',
      MONGODB_URL: 'mongodb://mongodb:27017/?replicaSet=rs0',
      MONGODB_DATABASE: `destiny_${name.replace(/-/g, '_')}`,
    });
    const expected: Record<(typeof APP_SERVICES)[number], Record<string, unknown>> = {
      'api-gateway': {
        ...common,
        PORT: '8080',
        IMPORT_SERVICE_GRPC_URL: 'import-service:50051',
        DEDUP_SERVICE_GRPC_URL: 'dedup-service:50051',
        ROBOT_BROKER_GRPC_URL: 'robot-broker:50051',
        SEARCH_REQUEST_SERVICE_GRPC_URL: 'search-request-service:50051',
        PERCOLATOR_GRPC_URL: 'percolator:50051',
        AUTH_ISSUER: 'http://keycloak:8080/realms/destiny',
        AUTH_JWKS_URL: 'http://keycloak:8080/realms/destiny/protocol/openid-connect/certs',
        AUTH_AUDIENCE: API_CLIENT,
        ...blob,
      },
      'import-service': { ...backend('import-service'), ...blob },
      'dedup-service': backend('dedup-service'),
      'robot-broker': { ...backend('robot-broker'), ...blob, ROBOT_SECRET_ENCRYPTION_KEY: expect.stringMatching(/^[0-9a-f]{64}$/) },
      'search-request-service': { ...backend('search-request-service'), ELASTICSEARCH_URL: 'http://elasticsearch:9200' },
      percolator: { ...backend('percolator'), ELASTICSEARCH_URL: 'http://elasticsearch:9200' },
    };
    for (const name of APP_SERVICES) {
      const environment = environmentOf(name);
      expect(environment).toMatchObject(expected[name]);
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).toContain(environment.LOG_LEVEL);
    }
  });

  it('when a backend service names the database, then each service has its own', () => {
    const databases = BACKEND_SERVICES.map((name) => environmentOf(name).MONGODB_DATABASE);
    expect(new Set(databases).size).toBe(BACKEND_SERVICES.length);
  });

  it('when ports are published, then only the gateway publishes an application port and infrastructure only its UIs', () => {
    expect(publishedPorts('api-gateway')).toEqual([{ host: 8080, container: 8080 }]);
    for (const name of BACKEND_SERVICES) expect({ name, ports: publishedPorts(name) }).toEqual({ name, ports: [] });
    const allowed: Record<string, { host: number; container: number }[]> = {
      rabbitmq: [{ host: 15672, container: 15672 }],
      keycloak: [{ host: 8180, container: 8080 }],
      jaeger: [{ host: 16686, container: 16686 }],
      // 9000 is the S3 API that BLOB_PUBLIC_ENDPOINT points robots to; 9001 is the console.
      minio: [
        { host: 9000, container: 9000 },
        { host: 9001, container: 9001 },
      ],
    };
    for (const name of Object.keys(compose.services).filter((candidate) => !(APP_SERVICES as readonly string[]).includes(candidate))) {
      expect({ name, ports: publishedPorts(name) }).toEqual({ name, ports: allowed[name] ?? [] });
    }
    expect(new URL(environmentOf('robot-broker').BLOB_PUBLIC_ENDPOINT).port).toBe('9000');
  });

  it('when the compose file mounts or builds from a path, then that path exists in the repository', () => {
    const checked: string[] = [];
    for (const [name, definition] of Object.entries(compose.services)) {
      if (definition.build) {
        const context = path.join(root, definition.build.context ?? '.');
        expect({ name, context: fs.existsSync(context) }).toEqual({ name, context: true });
        expect({ name, dockerfile: fs.existsSync(path.join(context, definition.build.dockerfile ?? 'Dockerfile')) }).toEqual({ name, dockerfile: true });
        checked.push(context);
      }
      for (const volume of definition.volumes ?? []) {
        const source = typeof volume === 'string' ? volume.split(':')[0] : volume.type === 'bind' ? volume.source : undefined;
        if (!source || !/^[./]/.test(source)) {
          expect({ name, namedVolumeDeclared: Object.keys(compose.volumes ?? {}).includes(String(source)) }).toEqual({ name, namedVolumeDeclared: true });
          continue;
        }
        expect({ name, source, exists: fs.existsSync(path.join(root, source)) }).toEqual({ name, source, exists: true });
        checked.push(source);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['./deploy/keycloak', './deploy/otel/collector.yaml']));
  });
});

describe('deploy/keycloak/destiny-realm.json', () => {
  it('when the realm is imported, then it is the destiny realm whose issuer and audience the gateway expects', () => {
    expect(realm.realm).toBe('destiny');
    expect(realm.enabled).toBe(true);
    const gateway = environmentOf('api-gateway');
    expect(gateway.AUTH_ISSUER).toBe(`${environmentOf('keycloak').KC_HOSTNAME}/realms/${String(realm.realm)}`);
    expect(gateway.AUTH_JWKS_URL).toBe(`http://keycloak:8080/realms/${String(realm.realm)}/protocol/openid-connect/certs`);
    expect(gateway.AUTH_AUDIENCE).toBe(API_CLIENT);
  });

  it('when the realm is imported, then the API client is a bearer-only resource server holding the eight roles', () => {
    const apiClient = realmClient(API_CLIENT);
    expect(apiClient.bearerOnly).toBe(true);
    expect(apiClient.publicClient).toBe(false);
    const clientRoles = ((realm.roles as { client: Record<string, { name: string }[]> }).client[API_CLIENT] ?? []).map((role) => role.name);
    expect([...clientRoles].sort()).toEqual([...ROLES].sort());
  });

  it('when a confidential client gets a token, then admin holds every role and reader holds reference.reader', () => {
    for (const [clientId, secret] of [
      ['admin', 'admin-dev-secret'],
      ['reader', 'reader-dev-secret'],
    ]) {
      const client = realmClient(clientId);
      expect(client).toMatchObject({ publicClient: false, serviceAccountsEnabled: true, clientAuthenticatorType: 'client-secret', secret });
    }
    expect(serviceAccountRoles('admin')).toEqual([...ROLES].sort());
    expect(serviceAccountRoles('reader')).toEqual(['reference.reader']);
  });

  it('when a user logs in interactively, then the public client requires PKCE S256 and allows loopback redirects', () => {
    const client = realmClient('destiny-auth-client-development');
    expect(client).toMatchObject({ publicClient: true, standardFlowEnabled: true, implicitFlowEnabled: false });
    expect((client.attributes as Record<string, string>)['pkce.code.challenge.method']).toBe('S256');
    expect(client.redirectUris).toEqual(expect.arrayContaining(['http://127.0.0.1/*', 'http://localhost/*']));
  });

  it('when a token is issued to a client, then an audience mapper puts the API client id in aud', () => {
    for (const clientId of ['admin', 'reader', 'destiny-auth-client-development']) {
      expect({ clientId, audienceMapper: hasAudienceMapper(realmClient(clientId)) }).toEqual({ clientId, audienceMapper: true });
    }
  });

  it('when a user is enrolled, then the default role gives them reference.reader', () => {
    const defaultRoleName = (realm.defaultRole as { name: string }).name;
    const defaultRole = ((realm.roles as { realm: Json[] }).realm ?? []).find((role) => role.name === defaultRoleName);
    expect(defaultRole?.composite).toBe(true);
    expect((defaultRole?.composites as { client: Record<string, string[]> }).client[API_CLIENT]).toContain('reference.reader');
  });

  it('when a token is issued, then it lives 7200 seconds', () => {
    expect(realm.accessTokenLifespan).toBe(7200);
  });

  it('when the devstack identity provider stands in for Keycloak, then both realms hold the same clients, roles, user and token lifespan', () => {
    expect(realm.realm).toBe(REALM);
    expect(realmClient(REPOSITORY_CLIENT_ID).bearerOnly).toBe(true);
    expect(realmClient(AUTH_CLIENT_ID).publicClient).toBe(true);
    expect([...ROLES].sort()).toEqual([...DEVSTACK_ROLES].sort());
    expect(realm.accessTokenLifespan).toBe(ACCESS_TOKEN_TTL_SECONDS);
    for (const client of Object.values(DEVELOPMENT_CLIENTS)) {
      expect(realmClient(client.clientId).secret).toBe(client.secret);
      expect(serviceAccountRoles(client.clientId)).toEqual([...client.roles].sort());
    }
    const user = objects(realm.users).find((candidate) => candidate.username === DEVELOPMENT_USER.username);
    expect(user).toMatchObject({ enabled: true, email: DEVELOPMENT_USER.email });
    expect(objects(user?.credentials)).toEqual([expect.objectContaining({ type: 'password', value: DEVELOPMENT_USER.password, temporary: false })]);
    expect([...((user?.clientRoles as Record<string, string[]>)[API_CLIENT] ?? [])].sort()).toEqual([...DEVELOPMENT_USER.roles].sort());
  });
});

describe('Dockerfile and .dockerignore', () => {
  const stages = dockerStages();
  const runtime = stages[stages.length - 1];
  const runtimeArgs = (instruction: string): string[] => runtime.instructions.filter((entry) => entry.instruction === instruction).map((entry) => entry.args);

  it('when the image is built, then a build stage compiles the workspace and a runtime stage runs it, both on Node 20', () => {
    expect(stages.map((stage) => stage.name)).toEqual(expect.arrayContaining(['build', 'runtime']));
    expect(runtime.name).toBe('runtime');
    for (const stage of stages) expect({ stage: stage.name, image: stage.image }).toEqual({ stage: stage.name, image: 'node:20-bookworm-slim' });
    const build = stages.find((stage) => stage.name === 'build');
    const buildRuns = build?.instructions.filter((entry) => entry.instruction === 'RUN').map((entry) => entry.args).join('\n') ?? '';
    expect(buildRuns).toMatch(/pnpm@\$\{PNPM_VERSION\} install [^\n]*--frozen-lockfile/);
    expect(buildRuns).toMatch(/typescript\/bin\/tsc -b (tsconfig\.build\.json|services\/\*)/);
  });

  it('when pnpm is fetched, then it is the version the workspace pins', () => {
    const packageManager = (JSON.parse(read('package.json')) as { packageManager: string }).packageManager;
    expect(dockerfile).toContain(`PNPM_VERSION=${packageManager.replace(/^pnpm@/, '')}`);
  });

  it('when the runtime image starts, then it runs the selected service\'s entry point as a non-root user in production mode', () => {
    expect(runtimeArgs('ARG')).toContain('SERVICE');
    expect(runtimeArgs('WORKDIR').pop()).toBe('/app/services/${SERVICE}');
    const user = runtimeArgs('USER').pop();
    expect(user).toBe('node');
    expect(['root', '0']).not.toContain(user);
    expect(runtimeArgs('ENV').join(' ')).toMatch(/\bNODE_ENV=production\b/);
    const command = JSON.parse(runtimeArgs('CMD').pop() ?? '[]') as string[];
    expect(command).toEqual(['node', expect.stringMatching(/^dist\/[\w-]+\.js$/)]);
    for (const name of APP_SERVICES) {
      const entrySource = path.join('services', name, command[1].replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'));
      expect({ entrySource, exists: fs.existsSync(path.join(root, entrySource)) }).toEqual({ entrySource, exists: true });
    }
    const healthcheck = runtimeArgs('HEALTHCHECK').join(' ');
    expect(healthcheck).toContain('/livez');
    expect(healthcheck).toContain('HEALTH_PORT');
  });

  it('when the Dockerfile copies from the build context, then every source exists and the context leaves out local state', () => {
    const sources = dockerInstructions()
      .filter((entry) => entry.instruction === 'COPY' && !entry.args.startsWith('--from'))
      .flatMap((entry) => entry.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect({ source, exists: fs.existsSync(path.join(root, source)) }).toEqual({ source, exists: true });
    const ignored = read('.dockerignore')
      .split(/\r?\n/)
      .map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '**/node_modules', 'dist', '**/dist', '.destiny', '.git']));
  });
});
