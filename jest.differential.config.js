// The differential suite (test/differential): every scenario in Kafka Streams' own
// TopologyTestDriver (a JVM, built with Maven when its sources change) and in ours, outputs and
// stores compared record for record. No broker. Run by `npm run test:differential`
// (`-- --seeds N` for more seeds than the 5 of `npm test`).
const shared = require('./jest.shared');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  displayName: 'differential',
  reporters: ['default', ['<rootDir>/tools/jest/summary-reporter.js', { label: 'differential' }]],
  roots: ['<rootDir>/test/differential'],
  testMatch: ['**/*.test.ts'],
  // The first run builds the Java side (Maven downloads Kafka Streams); each test sets its own.
  testTimeout: 900000,
  // One JVM serves the suite; two cores are shared with it.
  maxWorkers: 1,
};
