// One jest run over every package and service. TypeScript is transpiled by SWC (no type
// check here: `tsc -b` runs first in `npm test`), and workspace packages resolve to their
// sources so a test never runs against a stale build.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: [
    '<rootDir>/packages/*/src/**/*.test.ts',
    '<rootDir>/packages/*/test/**/*.test.ts',
    '<rootDir>/services/*/src/**/*.test.ts',
    '<rootDir>/services/*/test/**/*.test.ts',
    '<rootDir>/tests/**/*.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  moduleNameMapper: {
    '^@destiny/(contracts|platform|devstack)$': '<rootDir>/packages/$1/src/index.ts',
    '^@destiny/(contracts|platform|devstack)/(.*)$': '<rootDir>/packages/$1/src/$2',
  },
  testTimeout: 60000,
  maxWorkers: 2,
  forceExit: false,
};
