// The engine's only runtime import of kafkajs (types may be imported from 'kafkajs'
// directly): the fixes are installed by the first import, before kafkajs loads.
import './install-kafkajs-fixes';

export { AssignerProtocol, ConfigResourceTypes, Kafka, logLevel, Partitioners } from 'kafkajs';
export type { KafkaConfig } from 'kafkajs';
