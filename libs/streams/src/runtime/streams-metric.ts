import type { MetricsRecordingLevel } from './streams-config';

/**
 * Kafka Streams' metric groups (the MBean `type`), one per level of its hierarchy: the client,
 * its stream thread, its tasks, their processor nodes, their state stores (RocksDB's figures
 * included) and their record caches.
 */
export type StreamsMetricGroup =
  | 'stream-metrics'
  | 'stream-thread-metrics'
  | 'stream-task-metrics'
  | 'stream-processor-node-metrics'
  | 'stream-state-metrics'
  | 'stream-record-cache-metrics';

/**
 * One metric of a client as Kafka Streams names it: its group, name and tags (`thread-id`,
 * `task-id`, `processor-node-id`...), and its value when read. Latencies are in the unit Kafka
 * Streams documents for that metric (ms, or ns where Kafka says ns); a mean, minimum or maximum
 * with no value in its window is `NaN`, as in Kafka.
 */
export interface StreamsMetric {
  readonly group: StreamsMetricGroup;
  readonly name: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * What one metric is: where it sits, its name and tags, the recording level from which it is
 * recorded (`metrics.recording.level`), whether it only grows (`counter`: a `-total`) or goes up
 * and down (`gauge`), what it measures, and how it compares with Kafka Streams' metric of the
 * same name (`same`, or the difference).
 */
export interface StreamsMetricDefinition {
  readonly group: StreamsMetricGroup;
  readonly name: string;
  readonly tags: readonly string[];
  readonly level: MetricsRecordingLevel;
  readonly type: 'counter' | 'gauge';
  readonly description: string;
  readonly kafka: string;
}

const LEVELS: readonly MetricsRecordingLevel[] = ['INFO', 'DEBUG', 'TRACE'];

/** Whether a metric of `level` is recorded when the client's level is `configured`. */
export function isRecordedAt(level: MetricsRecordingLevel, configured: MetricsRecordingLevel) {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(configured);
}

/** The tags of every metric of a group (a metric may add its own, e.g. `reason`). */
export const GROUP_TAGS: { readonly [G in StreamsMetricGroup]: readonly string[] } = {
  'stream-metrics': ['client-id'],
  'stream-thread-metrics': ['thread-id'],
  'stream-task-metrics': ['task-id'],
  'stream-processor-node-metrics': ['task-id', 'processor-node-id'],
  'stream-state-metrics': ['task-id', 'store-scope', 'store-id'],
  'stream-record-cache-metrics': ['task-id', 'record-cache-id'],
};

/**
 * One definition: a counter when the name ends with `-total` (unless `gauge` says otherwise),
 * Kafka Streams' own metric (`same`) unless `kafka` says how it differs.
 */
export function metricDefinition(
  group: StreamsMetricGroup,
  name: string,
  level: MetricsRecordingLevel,
  description: string,
  options: { kafka?: string; tags?: readonly string[]; gauge?: boolean } = {},
): StreamsMetricDefinition {
  return {
    group,
    name,
    tags: [...GROUP_TAGS[group], ...(options.tags ?? [])],
    level,
    type: name.endsWith('-total') && !options.gauge ? 'counter' : 'gauge',
    description,
    kafka: options.kafka ?? 'same',
  };
}
