#!/usr/bin/env node
// `npm run test:integration:kafkajs [-- <jest args>]`: the integration suites that start a real
// KafkaStreams, run on kafkajs (NEST_STREAMS_CLIENT=kafkajs) instead of the default
// @platformatic/kafka, then the reliability suite's exactly-once zombie scenario and the cluster
// faults' kafkajs row on it. kafkajs stays supported (`kafkaClient: 'kafkajs'`) for applications
// that already run on it: this is its stated subset in CI. Needs `npm run build` first, as the
// integration suite does. Part of `npm test`.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { runIntegrationSuites } = require('./integration-subset');

/** The integration subset: every suite here passes on kafkajs. */
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
 * The reliability subset, after the suites above: the exactly-once zombie (fenced by its task
 * producer's epoch on kafkajs) and the cluster faults' kafkajs row (every fault, on a three-node
 * cluster of its own: cluster-fault-matrix.ts runs the rows of NEST_STREAMS_CLIENT).
 */
const RELIABILITY = ['zombie.reliability', 'cluster-faults.reliability'];

/**
 * Not here: test/app, test/security but the SASL_SSL suite, the other reliability suites, and
 * test/ suites that start no KafkaStreams. Cases that run kafkajs whatever the variable says run
 * in `npm run test:integration`: a quiet start of the example application on each client
 * (test/app/quiet-start.test.ts), a restarted instance's host map on each
 * (test/cluster/borrowed-host-map.test.ts), and `nest-streams reset` through each.
 */
const env = { ...process.env, NEST_STREAMS_CLIENT: 'kafkajs' };
process.stdout.write(`[kafkajs] ${SUITES.length} suites on kafkajs\n`);
const status = runIntegrationSuites({ suites: SUITES, jestArgs: process.argv.slice(2), env });
if (status !== 0 || process.argv.length > 2) process.exit(status);
process.stdout.write(`[kafkajs] reliability on kafkajs: ${RELIABILITY.join(', ')}\n`);
const reliability = spawnSync(
  process.execPath,
  [join(__dirname, 'run-reliability.js'), ...RELIABILITY],
  { stdio: 'inherit', env },
);
process.exit(reliability.status ?? 1);
