import { Registry } from 'prom-client';
import {
  STREAMS_METRIC_DEFINITIONS,
  type KafkaStreams,
  type StreamsMetric,
} from '@nest-streams/streams';
import { prometheusMetricName, StreamsMetricFamilies } from './streams-metric-families';

function families(level: 'INFO' | 'DEBUG', metrics: () => StreamsMetric[]): Registry {
  const registry = new Registry();
  const streams = { allMetrics: metrics } as unknown as KafkaStreams;
  new StreamsMetricFamilies('kafka_streams_', [registry], level, () => streams);
  return registry;
}

describe('StreamsMetricFamilies', () => {
  it("names Kafka Streams' metrics by group and name", () => {
    expect(
      prometheusMetricName('kafka_streams_', {
        group: 'stream-task-metrics',
        name: 'dropped-records-total',
      }),
    ).toBe('kafka_streams_stream_task_dropped_records_total');
    expect(
      prometheusMetricName('app_', { group: 'stream-metrics', name: 'alive-stream-threads' }),
    ).toBe('app_stream_alive_stream_threads');
  });

  it('registers every metric of the level at once, DEBUG ones only at DEBUG', async () => {
    const names = (registry: Registry) => registry.getMetricsAsArray().map((m) => m.name);
    const info = names(families('INFO', () => []));
    const debug = names(families('DEBUG', () => []));
    expect(debug).toHaveLength(STREAMS_METRIC_DEFINITIONS.length);
    expect(info).toContain('kafka_streams_stream_processor_node_record_e2e_latency_max');
    expect(info).not.toContain('kafka_streams_stream_processor_node_process_rate');
    expect(debug).toContain('kafka_streams_stream_processor_node_process_rate');
    expect(debug).toContain('kafka_streams_stream_state_block_cache_data_hit_ratio');
    expect(new Set(debug).size).toBe(debug.length);
  });

  it('fills them from one allMetrics() per scrape: counters, gauges and their labels', async () => {
    let reads = 0;
    let dropped = 3;
    const registry = families('DEBUG', (): StreamsMetric[] => {
      reads++;
      return [
        {
          group: 'stream-task-metrics',
          name: 'dropped-records-total',
          tags: { 'task-id': '0_1', reason: 'late_record' },
          value: dropped,
        },
        {
          group: 'stream-processor-node-metrics',
          name: 'record-e2e-latency-max',
          tags: { 'task-id': '0_1', 'processor-node-id': 'KSTREAM-SOURCE-0000000000' },
          value: 250,
        },
        {
          group: 'stream-processor-node-metrics',
          name: 'process-latency-avg',
          tags: { 'task-id': '0_1', 'processor-node-id': 'KSTREAM-SOURCE-0000000000' },
          value: NaN,
        },
      ];
    });
    let lines = (await registry.metrics()).split('\n');
    expect(reads).toBe(1);
    expect(lines).toContain('# TYPE kafka_streams_stream_task_dropped_records_total counter');
    expect(lines).toContain(
      'kafka_streams_stream_task_dropped_records_total{task_id="0_1",reason="late_record"} 3',
    );
    expect(lines).toContain(
      'kafka_streams_stream_processor_node_record_e2e_latency_max{task_id="0_1",processor_node_id="KSTREAM-SOURCE-0000000000"} 250',
    );
    // No value in its window: NaN, as in Kafka (prom-client writes it `Nan`, which Prometheus reads).
    expect(lines).toContain(
      'kafka_streams_stream_processor_node_process_latency_avg{task_id="0_1",processor_node_id="KSTREAM-SOURCE-0000000000"} Nan',
    );
    dropped = 5;
    lines = (await registry.metrics()).split('\n');
    expect(reads).toBe(2);
    expect(lines).toContain(
      'kafka_streams_stream_task_dropped_records_total{task_id="0_1",reason="late_record"} 5',
    );
  });

  it('scrapes without series before the client starts, and when reading fails', async () => {
    const registry = families('INFO', () => {
      throw new Error('closing');
    });
    const scrape = await registry.metrics();
    expect(scrape).toContain('# TYPE kafka_streams_stream_thread_commit_latency_avg gauge');
    expect(scrape).not.toMatch(/^kafka_streams_\S+ /m);
  });
});
