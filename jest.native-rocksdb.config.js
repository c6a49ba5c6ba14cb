// Unit tests of the project's RocksDB addon (libs/rocksdb) and of the engine on it
// (`*native-rocksdb*.spec.ts`), in Jest processes of their own: the addon links the system
// librocksdb, which cannot share a process with the RocksDB that @nxtedition/rocksdb bundles
// (see rocksdb-binding-guard.ts), and Jest reuses its processes across spec files.
const shared = require('./jest.shared');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  displayName: 'unit:native-rocksdb',
  reporters: [
    'default',
    ['<rootDir>/tools/jest/summary-reporter.js', { label: 'unit-native-rocksdb' }],
  ],
  testMatch: ['<rootDir>/libs/rocksdb/**/*.spec.ts', '<rootDir>/libs/**/*native-rocksdb*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/dist/'],
};
