// Unit tests: `*.spec.ts` beside the code. No broker, no network (`*.broker.spec.ts` need the
// broker: they run with the integration tests).
// The project's own addon (libs/rocksdb, `*native-rocksdb*.spec.ts`) runs in
// jest.native-rocksdb.config.js: it cannot share a process with @nxtedition/rocksdb, and Jest
// reuses its workers across spec files.
const shared = require('./jest.shared');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  displayName: 'unit',
  reporters: ['default', ['<rootDir>/tools/jest/summary-reporter.js', { label: 'unit' }]],
  testMatch: ['<rootDir>/{libs,apps,tools,bench}/**/*.spec.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '/dist/',
    '<rootDir>/test/',
    '\\.broker\\.spec\\.ts$',
    '<rootDir>/libs/rocksdb/',
    'native-rocksdb',
  ],
};
