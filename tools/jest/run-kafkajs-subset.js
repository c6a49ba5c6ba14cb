#!/usr/bin/env node
// `npm run test:integration:platformatic [-- <jest args>]`: the integration suites that start a
// real KafkaStreams, run on @platformatic/kafka (NEST_STREAMS_CLIENT) instead of the default
// kafkajs, then the exactly-once zombie scenario of the reliability suite on it (the KIP-447
// fencing). Needs `npm run build` first, as the integration suite does. Part of `npm test`.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

/** The subset: every suite here passes on @platformatic/kafka. */
const SUITES = [
  'test/runtime/copartition.test.ts',
  'test/runtime/crash-recovery.test.ts',
  'test/runtime/dead-letter.test.ts',
  'test/runtime/dsl-aggregations.test.ts',
  'test/runtime/global-table.test.ts',
  'test/runtime/kafka-streams-runtime.test.ts',
  'test/runtime/read-committed.test.ts',
  'test/runtime/replace-thread.test.ts',
  'test/runtime/restore-interrupted.test.ts',
  'test/runtime/restoring-store-queries.test.ts',
  'test/runtime/startup-warnings.test.ts',
  'test/cluster/multi-instance.test.ts',
  'test/nestjs/streams-module-startup.test.ts',
  'test/security/kafka-sasl-ssl.e2e.test.ts',
];

/**
 * Not here: test/app, test/security but the SASL_SSL suite, the reliability suites but the zombie
 * scenario (run after these), and test/ suites that start no KafkaStreams.
 */
const root = join(__dirname, '..', '..');
process.stdout.write(`[platformatic] ${SUITES.length} suites on @platformatic/kafka\n`);
const result = spawnSync(
  process.execPath,
  [
    require.resolve('jest/bin/jest'),
    '--config',
    join(root, 'jest.integration.config.js'),
    ...SUITES.map((s) => join(root, s)),
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env: { ...process.env, NEST_STREAMS_CLIENT: '@platformatic/kafka' } },
);
if (result.status !== 0 || process.argv.length > 2) process.exit(result.status ?? 1);
const zombie = spawnSync(
  process.execPath,
  [join(__dirname, 'run-reliability.js'), 'zombie.reliability'],
  { stdio: 'inherit', env: { ...process.env, NEST_STREAMS_CLIENT: '@platformatic/kafka' } },
);
process.exit(zombie.status ?? 1);
