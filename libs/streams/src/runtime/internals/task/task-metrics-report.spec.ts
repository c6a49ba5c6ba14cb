import type { ConsumedRecord } from '../../../client/consumed-record';
import { Consumed } from '../../../kstream/consumed';
import { Materialized } from '../../../kstream/materialized';
import { Produced } from '../../../kstream/produced';
import { StreamsBuilder } from '../../../kstream/streams-builder';
import { TimeWindows } from '../../../kstream/windows/time-windows';
import { Serdes } from '../../../serde/serdes';
import { logAndContinueProcessing } from '../../processing-exception-handler';
import type { MetricsRecordingLevel } from '../../streams-config';
import type { StreamsMetric } from '../../streams-metric';
import { MetricsReport } from '../metrics/metrics-report';
import { WindowRates } from '../metrics/window-rates';
import { TestTasks } from '../../../../test-support/stream-task-test-support';
import { reportTaskMetrics } from './task-metrics-report';

const NOW = 100_000;
const str = Serdes.String();

/**
 * A task's metrics as `KafkaStreams.allMetrics()` reports them, on a task whose clock is fixed
 * (so end-to-end latencies are exact): a windowed count without grace beside a mapper that
 * throws on one value (the processing handler continues), fed four records, one of them late.
 */
describe('reportTaskMetrics', () => {
  const tasks = new TestTasks();
  afterAll(() => tasks.removeDirectories());

  async function run(level: MetricsRecordingLevel): Promise<StreamsMetric[]> {
    const builder = new StreamsBuilder();
    const stream = builder.stream('in', Consumed.with(str, str));
    stream
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10_000))
      .count(Materialized.as<string, number>('counts'));
    stream
      .mapValues((v) => {
        if (v === 'boom') throw new RangeError('boom');
        return v.toUpperCase();
      })
      .to('out', Produced.with(str, str));
    const { task } = await tasks.create(builder.build(), {
      config: {
        applicationId: 'metrics',
        metricsRecordingLevel: level,
        processingExceptionHandler: logAndContinueProcessing({ log: () => undefined }),
      },
      task: () => ({ now: () => NOW }),
    });
    const records: [string, number][] = [
      ['a', 50_000],
      ['b', 70_000], // stream time 70 s: the window [50 s, 60 s) is closed
      ['c', 55_000], // late for that window (no grace): dropped, 15 s late
      ['boom', 71_000], // the mapper throws: skipped from the mapper on
    ];
    const input: ConsumedRecord[] = records.map(([value, timestamp], i) => ({
      topic: 'in',
      partition: 0,
      offset: i,
      timestamp,
      key: Buffer.from('k'),
      value: Buffer.from(value),
      headers: {},
    }));
    await task.process(input);
    const report = new MetricsReport(level, NOW, new WindowRates());
    reportTaskMetrics(report, task);
    await task.close(true);
    return report.metrics;
  }

  const value = (metrics: StreamsMetric[], name: string, tags: Record<string, string>) =>
    metrics.find((m) => m.name === name && Object.entries(tags).every(([k, v]) => m.tags[k] === v))
      ?.value;

  it('reports dropped records by reason and end-to-end latencies at INFO', async () => {
    const metrics = await run('INFO');
    const dropped = Object.fromEntries(
      metrics
        .filter((m) => m.name === 'dropped-records-total')
        .map((m) => [m.tags.reason, m.value]),
    );
    expect(dropped).toEqual({
      deserialization_error: 0,
      invalid_timestamp: 0,
      processing_error: 1,
      production_error: 0,
      null_key: 0,
      null_value: 0,
      late_record: 1,
      no_join_partner: 0,
      other: 0,
    });
    // Entering the source: 100 s minus each timestamp.
    const source = { 'processor-node-id': 'KSTREAM-SOURCE-0000000000' };
    expect(value(metrics, 'record-e2e-latency-min', source)).toBe(29_000);
    expect(value(metrics, 'record-e2e-latency-max', source)).toBe(50_000);
    expect(value(metrics, 'record-e2e-latency-avg', source)).toBe(38_500);
    // The sink got three of them (not the one the mapper threw on).
    const sink = { 'processor-node-id': 'KSTREAM-SINK-0000000003' };
    expect(value(metrics, 'record-e2e-latency-min', sink)).toBe(30_000);
    expect(value(metrics, 'record-e2e-latency-avg', sink)).toBe(125_000 / 3);
    // Only source and terminal nodes have end-to-end latencies; no DEBUG metric at INFO.
    const nodes = new Set(
      metrics
        .filter((m) => m.group === 'stream-processor-node-metrics')
        .map((m) => m.tags['processor-node-id']),
    );
    expect([...nodes].sort()).toEqual([
      'KSTREAM-AGGREGATE-0000000001',
      'KSTREAM-SINK-0000000003',
      'KSTREAM-SOURCE-0000000000',
    ]);
    expect(metrics.filter((m) => m.name.startsWith('process'))).toEqual([]);
    expect(value(metrics, 'dead-letter-records-total', { reason: 'processing_error' })).toBe(0);
  });

  it("adds every node's calls and latency, the lateness and processed records at DEBUG", async () => {
    const metrics = await run('DEBUG');
    const processed = Object.fromEntries(
      metrics
        .filter((m) => m.name === 'process-total' && m.group === 'stream-processor-node-metrics')
        .map((m) => [m.tags['processor-node-id'], m.value]),
    );
    expect(processed).toEqual({
      'KSTREAM-SOURCE-0000000000': 4,
      'KSTREAM-AGGREGATE-0000000001': 4,
      'KSTREAM-MAPVALUES-0000000002': 4,
      'KSTREAM-SINK-0000000003': 3,
    });
    expect(value(metrics, 'process-total', { 'task-id': '0_0' })).toBe(4);
    expect(value(metrics, 'record-lateness-max', {})).toBe(15_000);
    expect(value(metrics, 'record-lateness-avg', {})).toBe(3_750);
    const latency = value(metrics, 'process-latency-max', {
      'processor-node-id': 'KSTREAM-SOURCE-0000000000',
    })!;
    expect(latency).toBeGreaterThan(0);
    expect(latency).toBeLessThan(5e9); // ns: well under 5 s
  });
});
