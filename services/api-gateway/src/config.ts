import { commonConfig, defineConfig, fullTextBlobConfig } from '@destiny/platform';

// The defaults name the development realm of the embedded identity server on its default port,
// so a gateway started without these variables trusts exactly what `npm start` runs.
const DEVELOPMENT_ISSUER = 'http://127.0.0.1:8180/realms/destiny';

export const apiGatewayConfig = defineConfig({
  ...commonConfig,
  HEALTH_PORT: { ...commonConfig.HEALTH_PORT, default: 9460 },
  PORT: { kind: 'integer', default: 8080, min: 0, max: 65535, description: 'public HTTP port of the API' },
  HOST: { kind: 'string', default: '0.0.0.0', description: 'HTTP listen address' },
  IMPORT_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50051', description: 'import-service gRPC address (host:port)' },
  DEDUP_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50052', description: 'dedup-service gRPC address' },
  ROBOT_BROKER_GRPC_URL: { kind: 'string', default: '127.0.0.1:50053', description: 'robot-broker gRPC address' },
  SEARCH_REQUEST_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50054', description: 'search-request-service gRPC address' },
  PERCOLATOR_GRPC_URL: { kind: 'string', default: '127.0.0.1:50055', description: 'percolator gRPC address' },
  AUTH_ISSUER: { kind: 'url', default: DEVELOPMENT_ISSUER, description: 'the `iss` every bearer token must carry (Keycloak: `<url>/realms/<realm>`)' },
  AUTH_JWKS_URL: { kind: 'url', default: `${DEVELOPMENT_ISSUER}/protocol/openid-connect/certs`, description: "the identity provider's JWKS (signing keys, cached 24 h)" },
  AUTH_AUDIENCE: { kind: 'string', default: 'destiny-repository-client-development', description: "the repository's client id: required in `aud`, roles read from `resource_access[<it>].roles`" },
  ...fullTextBlobConfig,
  MAX_BODY_BYTES: { kind: 'integer', default: 16 * 1024 * 1024, min: 1024, description: 'largest request body accepted (413 above)' },
});
