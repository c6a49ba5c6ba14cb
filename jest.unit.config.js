// Unit tests: `*.spec.ts` beside the code, on the default RocksDB engine (@nest-streams/rocksdb,
// the project's addon). No broker, no network (`*.broker.spec.ts` need the broker: they run
// with the integration tests). Specs of the fallback engine (`*nxtedition*.spec.ts`) run in
// jest.nxtedition-rocksdb.config.js: the two RocksDB bindings cannot share a process, and Jest
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
    'nxtedition',
  ],
};
