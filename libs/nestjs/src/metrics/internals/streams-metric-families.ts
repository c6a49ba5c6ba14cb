import { Counter, Gauge, type Registry } from 'prom-client';
import {
  isRecordedAt,
  STREAMS_METRIC_DEFINITIONS,
  type KafkaStreams,
  type MetricsRecordingLevel,
  type StreamsMetric,
  type StreamsMetricDefinition,
} from '@nest-streams/streams';

type Family = Gauge<string> | Counter<string>;

/**
 * The Prometheus name of a Kafka Streams metric: the prefix, the group without `-metrics`, the
 * name, dashes as underscores (`stream-task-metrics` `dropped-records-total` is
 * `kafka_streams_stream_task_dropped_records_total`).
 */
export function prometheusMetricName(
  prefix: string,
  { group, name }: Pick<StreamsMetricDefinition, 'group' | 'name'>,
): string {
  return `${prefix}${group.replace(/-metrics$/, '')}_${name}`.replace(/-/g, '_');
}

/** A Kafka Streams tag as a Prometheus label: `task-id` is `task_id`. */
export function prometheusLabelName(tag: string): string {
  return tag.replace(/-/g, '_');
}

/**
 * Kafka Streams' metrics of the client (`KafkaStreams.allMetrics()`) as Prometheus metric
 * families: one per metric recorded at the client's `metrics.recording.level` (a counter for a
 * `-total` that only grows, a gauge otherwise), registered at once, so a scrape lists every
 * name even before the first task, and filled from one `allMetrics()` read per scrape (the
 * first family's collect fills them all; it is registered before the others).
 */
export class StreamsMetricFamilies {
  private readonly families = new Map<string, { family: Family; counter: boolean }>();

  constructor(
    prefix: string,
    registers: Registry[],
    level: MetricsRecordingLevel,
    private readonly streams: () => KafkaStreams | undefined,
  ) {
    const definitions = STREAMS_METRIC_DEFINITIONS.filter((d) => isRecordedAt(d.level, level));
    definitions.forEach((definition, i) => {
      const options = {
        name: prometheusMetricName(prefix, definition),
        help: help(definition),
        labelNames: definition.tags.map(prometheusLabelName),
        registers,
        ...(i === 0 ? { collect: () => this.fill() } : {}),
      };
      const counter = definition.type === 'counter';
      const family = counter ? new Counter(options) : new Gauge(options);
      this.families.set(`${definition.group} ${definition.name}`, { family, counter });
    });
  }

  private fill(): void {
    for (const { family } of this.families.values()) family.reset();
    const streams = this.streams();
    if (!streams || typeof streams.allMetrics !== 'function') return;
    let metrics: StreamsMetric[];
    try {
      metrics = streams.allMetrics();
    } catch {
      return; // never fails a scrape
    }
    for (const metric of metrics) {
      const target = this.families.get(`${metric.group} ${metric.name}`);
      if (!target) continue;
      const labels: Record<string, string> = {};
      for (const tag in metric.tags) labels[prometheusLabelName(tag)] = metric.tags[tag];
      if (target.counter) (target.family as Counter<string>).inc(labels, metric.value);
      else (target.family as Gauge<string>).set(labels, metric.value);
    }
  }
}

function help(definition: StreamsMetricDefinition): string {
  const kafka = definition.kafka === 'same' ? '' : `; ${definition.kafka}`;
  return `${definition.description} (Kafka Streams: ${definition.group} ${definition.name}, ${definition.level}${kafka})`;
}
