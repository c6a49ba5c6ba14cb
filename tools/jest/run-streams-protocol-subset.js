#!/usr/bin/env node
// `npm run test:integration:streams-protocol [-- <jest args>]`: the multi-instance suites on
// Kafka's streams rebalance protocol (KIP-1071, `groupProtocol: 'streams'`): the broker assigns
// the tasks, on @platformatic/kafka (NEST_STREAMS_CLIENT, NEST_STREAMS_GROUP_PROTOCOL). Needs
// `npm run build` first, as the integration suite does, and a broker whose
// `group.coordinator.rebalance.protocols` has `streams` (Kafka 4.2+ by default; the project's
// broker also shortens the streams groups' delays, see libs/testing/src/kafka/server-properties.ts).
// Part of `npm test`.
const { runIntegrationSuites } = require('./integration-subset');

/** The subset: every suite here passes on the streams protocol (but the test below). */
const SUITES = [
  'test/cluster/multi-instance.test.ts',
  'test/cluster/scaling.test.ts',
  'test/cluster/static-membership.test.ts',
];

/**
 * Left out: warm-ups are the client's assignor's under the classic protocol (its
 * `acceptableRecoveryLag`, `probingRebalanceIntervalMs`). Under the streams protocol the broker's
 * assignor decides, and the 4.4.0 broker moves a task to a new instance at once, without a
 * warm-up (the new instance restores the whole changelog), whatever the group's
 * `streams.acceptable.recovery.lag`.
 */
const LEFT_OUT = 'a new instance warms up before it takes a task over';

process.stdout.write(`[streams-protocol] ${SUITES.length} suites with groupProtocol 'streams'\n`);
const status = runIntegrationSuites({
  suites: SUITES,
  jestArgs: ['--testNamePattern', `^(?!.*${LEFT_OUT}).*$`, ...process.argv.slice(2)],
  env: {
    ...process.env,
    NEST_STREAMS_CLIENT: '@platformatic/kafka',
    NEST_STREAMS_GROUP_PROTOCOL: 'streams',
  },
});
process.exit(status);
