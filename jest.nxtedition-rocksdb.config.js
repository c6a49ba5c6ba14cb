// Unit tests of the fallback RocksDB engine (@nxtedition/rocksdb, `*nxtedition*.spec.ts`), in
// Jest processes of their own where the project's addon is disabled: the two RocksDB bindings
// cannot share a process (see rocksdb-binding-guard.ts), and Jest reuses its workers.
const shared = require('./jest.shared');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  displayName: 'unit:nxtedition-rocksdb',
  reporters: [
    'default',
    ['<rootDir>/tools/jest/summary-reporter.js', { label: 'unit-nxtedition-rocksdb' }],
  ],
  setupFiles: ['<rootDir>/tools/jest/fallback-rocksdb-engine.js'],
  testMatch: ['<rootDir>/libs/**/*nxtedition*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
