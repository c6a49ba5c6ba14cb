// Unit tests of the `rocksdb` (leveldown-style) binding, in processes of their own: it cannot
// share a process with @nxtedition/rocksdb (both bundle RocksDB; loading both aborts).
const shared = require('./jest.shared');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  displayName: 'unit:rocksdb-binding',
  reporters: [
    'default',
    ['<rootDir>/tools/jest/summary-reporter.js', { label: 'unit-rocksdb-binding' }],
  ],
  testMatch: ['<rootDir>/libs/**/*leveldown*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/dist/'],
};
