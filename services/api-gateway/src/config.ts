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
  AUTH_PROVIDER: { kind: 'string', default: 'keycloak', oneOf: ['keycloak', 'azure', 'both'], description: 'who issues bearer tokens: `keycloak` (the `AUTH_*` variables), `azure` (the `AZURE_*` variables) or `both` (routed by the token\'s `iss`)' },
  AUTH_ISSUER: { kind: 'url', default: DEVELOPMENT_ISSUER, description: 'the `iss` every Keycloak bearer token must carry (`<url>/realms/<realm>`)' },
  AUTH_JWKS_URL: { kind: 'url', default: `${DEVELOPMENT_ISSUER}/protocol/openid-connect/certs`, description: "the Keycloak JWKS (signing keys, cached 24 h)" },
  AUTH_AUDIENCE: { kind: 'string', default: 'destiny-repository-client-development', description: "the repository's Keycloak client id: required in `aud`, roles read from `resource_access[<it>].roles`" },
  AZURE_LOGIN_URL: { kind: 'url', default: '', description: 'Azure AD tenant login URL (e.g. `https://login.microsoftonline.com/<tenant>`): tokens need `iss` = `<it>/v2.0`, keys from `<it>/discovery/v2.0/keys` (cached 24 h); required when AUTH_PROVIDER is azure or both' },
  AZURE_APPLICATION_ID: { kind: 'string', default: '', description: "the repository's Azure application id, required in `aud`; required when AUTH_PROVIDER is azure or both" },
  ...fullTextBlobConfig,
  MAX_BODY_BYTES: { kind: 'integer', default: 16 * 1024 * 1024, min: 1024, description: 'largest request body accepted (413 above)' },
});
