import type { MetricsRecordingLevel } from './streams-config';
import {
  metricDefinition,
  type StreamsMetricDefinition,
  type StreamsMetricGroup,
} from './streams-metric';
import { STORE_METRIC_DEFINITIONS } from './store-metric-catalog';

const WINDOW = 'over the last 30 to 60 s';
const CLIENT = 'stream-metrics';
const THREAD = 'stream-thread-metrics';
const TASK = 'stream-task-metrics';
const NODE = 'stream-processor-node-metrics';

/** `<op>-rate` and `<op>-total`, and `<op>-latency-avg`/`-max` when `latency` names a unit. */
function invocations(
  group: StreamsMetricGroup,
  op: string,
  level: MetricsRecordingLevel,
  what: string,
  latency?: string,
  options: { kafka?: string; tags?: readonly string[] } = {},
): StreamsMetricDefinition[] {
  return [
    metricDefinition(group, `${op}-rate`, level, `${what} per second, ${WINDOW}.`, options),
    metricDefinition(group, `${op}-total`, level, `${what} since it started.`, options),
    ...(latency === undefined
      ? []
      : (['avg', 'max'] as const).map((stat) =>
          metricDefinition(
            group,
            `${op}-latency-${stat}`,
            level,
            `${stat === 'avg' ? 'Mean' : 'Largest'} ${latency}, ${WINDOW}.`,
            options,
          ),
        )),
  ];
}

/** Why a task dropped records: the `reason` tag of `dropped-records-*`. */
export const DROPPED_RECORD_REASONS = [
  'deserialization_error',
  'invalid_timestamp',
  'processing_error',
  'production_error',
  'null_key',
  'null_value',
  'late_record',
  'no_join_partner',
  'other',
] as const;

/** The kinds of failure whose records go to the dead-letter topic (the `reason` tag). */
export const DEAD_LETTER_REASONS = [
  'deserialization_error',
  'processing_error',
  'production_error',
] as const;

/**
 * Every metric a `KafkaStreams` reports (`KafkaStreams.allMetrics()`), with its Kafka Streams
 * group, name, tags and recording level: the client, its stream thread, its tasks, their
 * processor nodes, state stores (RocksDB's properties and statistics included) and record
 * caches. What the Nest module exports on `/metrics`, and what docs/metrics.md lists.
 */
export const STREAMS_METRIC_DEFINITIONS: readonly StreamsMetricDefinition[] = [
  metricDefinition(
    CLIENT,
    'alive-stream-threads',
    'INFO',
    'Stream threads running (a client runs one).',
  ),
  metricDefinition(
    CLIENT,
    'failed-stream-threads',
    'INFO',
    'Stream threads that failed since the client started (each one the uncaught-exception handler replaced counts).',
  ),
  ...invocations(
    THREAD,
    'commit',
    'INFO',
    'Commits',
    'commit time in ms (flush, produce, checkpoint and offsets of the due tasks)',
  ),
  ...invocations(
    THREAD,
    'process',
    'INFO',
    'Records processed',
    'processing time per record in ms, one value per processed slice of a batch',
  ),
  ...invocations(THREAD, 'punctuate', 'INFO', 'Punctuator calls', 'punctuator call time in ms'),
  ...invocations(
    THREAD,
    'poll',
    'INFO',
    'Completed fetches (empty ones included: a live thread keeps fetching)',
    undefined,
    { kafka: 'counts completed fetches, where Kafka counts calls to poll(); no poll-latency' },
  ),
  ...invocations(THREAD, 'task-created', 'INFO', 'Active tasks created'),
  ...invocations(THREAD, 'task-closed', 'INFO', 'Active tasks closed'),
  metricDefinition(THREAD, 'thread-start-time', 'INFO', 'When the thread started, in epoch ms.'),
  ...invocations(
    TASK,
    'dropped-records',
    'INFO',
    'Records dropped, by `reason` (a handler skipped it, or a DSL operator dropped it)',
    undefined,
    { tags: ['reason'], kafka: 'same, with a `reason` tag: Kafka reports the sum only' },
  ),
  metricDefinition(
    TASK,
    'dead-letter-records-total',
    'INFO',
    'Records written to the dead-letter topic, by `reason` (the kind of failure).',
    { tags: ['reason'], kafka: 'none (KIP-1034 adds no metric)' },
  ),
  ...invocations(TASK, 'process', 'DEBUG', 'Records processed by the task'),
  ...invocations(
    TASK,
    'enforced-processing',
    'DEBUG',
    'Records processed while an input partition of the task was empty and waited for no longer (`max.task.idle.ms`): possibly out of timestamp order across its inputs',
  ),
  metricDefinition(
    TASK,
    'process-latency-avg',
    'DEBUG',
    `Mean processing time per record in ns, one value per processed slice, ${WINDOW}.`,
  ),
  metricDefinition(
    TASK,
    'process-latency-max',
    'DEBUG',
    `Largest processing time per record in ns, one value per processed slice, ${WINDOW}.`,
  ),
  metricDefinition(
    TASK,
    'record-lateness-avg',
    'DEBUG',
    `Mean lateness of the records (stream time minus record timestamp, at least 0) in ms, ${WINDOW}.`,
  ),
  metricDefinition(
    TASK,
    'record-lateness-max',
    'DEBUG',
    `Largest lateness of the records in ms, ${WINDOW}.`,
  ),
  ...invocations(TASK, 'restore', 'DEBUG', 'Changelog records restored into the task (KIP-869)'),
  metricDefinition(
    TASK,
    'restore-remaining-records-total',
    'INFO',
    'Changelog offsets the task still has to restore (0 once restored; KIP-869).',
    { gauge: true, kafka: 'same (a gauge: it goes down as the restore goes on)' },
  ),
  ...invocations(
    TASK,
    'update',
    'DEBUG',
    'Changelog records applied to the standby task (KIP-869)',
  ),
  ...invocations(
    NODE,
    'process',
    'DEBUG',
    'Records the node processed',
    'call time in ns (a node forwards synchronously: its children included)',
    {
      kafka:
        'Kafka reports process-rate and process-total on source nodes only, and no latency (it had one before 2.5)',
    },
  ),
  ...(['avg', 'min', 'max'] as const).map((stat) =>
    metricDefinition(
      NODE,
      `record-e2e-latency-${stat}`,
      'INFO',
      `${{ avg: 'Mean', min: 'Smallest', max: 'Largest' }[stat]} end-to-end latency of the records in ms (wall-clock time minus record timestamp, when the record enters a source node or a terminal node finished with it; KIP-613), ${WINDOW}. Source and terminal nodes only.`,
    ),
  ),
  ...STORE_METRIC_DEFINITIONS,
];
