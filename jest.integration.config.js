// Integration and end-to-end tests against a real Kafka broker: test/ (through the packages'
// public API) and `*.broker.spec.ts` beside the engine code they test (its internals).
// The global setup starts the project's own broker unless KAFKA_BROKERS names a cluster.
const shared = require('./jest.shared');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  displayName: 'integration',
  reporters: ['default', ['<rootDir>/tools/jest/summary-reporter.js', { label: 'integration' }]],
  roots: ['<rootDir>/test', '<rootDir>/libs'],
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/libs/**/*.broker.spec.ts'],
  // test/consumer/fixture is an application of its own: its test runs in its own directory.
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/test/reliability/',
    '<rootDir>/test/differential/',
    '<rootDir>/test/consumer/fixture/',
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 120000,
  // One suite at a time: suites start several instances each, and two cores are shared with the broker.
  maxWorkers: 1,
};
