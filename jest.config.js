// One jest run over every package and service. TypeScript is transpiled by SWC (no type
// check here: `tsc -b` runs first in `npm test`), and workspace packages resolve to their
// sources so a test never runs against a stale build.
// Tests that restart the shared RabbitMQ broker run alone, after everything else, as their own
// phase (DESTINY_TEST_PHASE=broker-restart), so they never pull the broker from under other tests.
const brokerRestartPhase = process.env.DESTINY_TEST_PHASE === 'broker-restart';

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: (brokerRestartPhase ? ['**/*.broker-restart.test.ts'] : ['**/*.test.ts']).flatMap((file) => [
    `<rootDir>/packages/*/src/${file}`,
    `<rootDir>/packages/*/test/${file}`,
    `<rootDir>/services/*/src/${file}`,
    `<rootDir>/services/*/test/${file}`,
    `<rootDir>/tests/${file}`,
  ]),
  testPathIgnorePatterns: ['/node_modules/', '/dist/', ...(brokerRestartPhase ? [] : ['\\.broker-restart\\.test\\.ts$'])],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
    // ESM-only dependencies that CommonJS packages require (jose, under jwks-rsa) are turned into
    // CommonJS for jest, which cannot require ES modules; Node itself loads them natively.
    '^.+/node_modules/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/jose@[^/]+/node_modules/)?jose/)'],
  moduleNameMapper: {
    '^@destiny/(contracts|platform|devstack)$': '<rootDir>/packages/$1/src/index.ts',
    '^@destiny/(contracts|platform|devstack)/(.*)$': '<rootDir>/packages/$1/src/$2',
    '^@destiny/(api-gateway|import-service|dedup-service|robot-broker|search-request-service|percolator)$': '<rootDir>/services/$1/src/index.ts',
  },
  testTimeout: 60000,
  maxWorkers: 2,
  forceExit: false,
};
