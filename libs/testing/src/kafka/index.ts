/**
 * `@nest-streams/testing/kafka`: the development broker of the `nest-streams-kafka` bin, from
 * code, for a test suite's global setup (`startBroker()` then `KAFKA_BROKERS`), a fault test's
 * three-node cluster (`startCluster`, `clusterNodeCommand`), and the topics it needs. Needs
 * Java 17+ and Maven (the jars are resolved into the local Maven repository). Each function's
 * TSDoc says what it throws; every failure of the tool is a `BrokerToolError` whose message says
 * what to do.
 *
 * @module @nest-streams/testing/kafka
 */
export { BrokerToolError } from './broker-error';
export {
  runningBroker,
  startBroker,
  stopBroker,
  type BrokerState,
  type StartOptions,
  type StopOptions,
} from './broker';
export {
  clusterNodeCommand,
  runningCluster,
  startCluster,
  stopCluster,
  type ClusterCommandOptions,
  type ClusterNodeAction,
  type ClusterStartOptions,
} from './cluster';
export { readClusterLayout, type ClusterLayout, type ClusterNodeLayout } from './cluster-layout';
export { readClusterState, type ClusterNodeState, type ClusterState } from './cluster-state';
export { processState, type ProcessState } from './node-process';
export { distinctFreePorts, freePort, isPort, portIsFree } from './free-port';
export { findJava } from './java-runtime';
export { pinnedKafkaVersion } from './maven-classpath';
export { KAFKA_HOME, STATE_FILE } from './paths';
export { createTopic, toolAdmin, waitForTopicLeaders, type NewTopic } from './topic-commands';
export { produceLines } from './console-producer';
export { bootstrapBrokers } from './bootstrap-brokers';
