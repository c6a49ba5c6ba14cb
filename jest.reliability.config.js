// The reliability suite (test/reliability): fault injection and bad input against real
// order-stats processes and the real broker. Run by `npm run test:reliability` (reduced size,
// as in CI) or `npm run test:reliability -- --full`.
const shared = require('./jest.shared');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  displayName: 'reliability',
  reporters: ['default', ['<rootDir>/tools/jest/summary-reporter.js', { label: 'reliability' }]],
  roots: ['<rootDir>/test/reliability'],
  testMatch: ['**/*.reliability.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Full-size scenarios run for minutes; each test sets its own budget below this.
  testTimeout: 1_800_000,
  // Scenarios start several instances and kill them; two cores are shared with the broker.
  maxWorkers: 1,
};
