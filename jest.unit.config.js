// Unit tests: `*.spec.ts` beside the code. No broker, no network.
// Specs of the `rocksdb` binding (`*leveldown*.spec.ts`) run in jest.leveldown.config.js:
// the two RocksDB bindings abort when both are loaded in one process, and Jest reuses workers.
// For the same reason the project's own addon (libs/rocksdb, `*native-rocksdb*.spec.ts`) runs
// in jest.native-rocksdb.config.js.
const shared = require('./jest.shared');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  displayName: 'unit',
  reporters: ['default', ['<rootDir>/tools/jest/summary-reporter.js', { label: 'unit' }]],
  testMatch: ['<rootDir>/{libs,apps,tools,bench}/**/*.spec.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/dist/',
    '<rootDir>/test/',
    'leveldown',
    '<rootDir>/libs/rocksdb/',
    'native-rocksdb',
  ],
};
