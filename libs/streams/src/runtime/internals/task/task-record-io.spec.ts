/**
 * A task's record input (SourceRecordReader) and output (SinkRecordWriter), tested together:
 * dead letters are partitioned by the output's rule.
 */
import { InMemoryRecordCollector } from '../../../processor/internals/in-memory-record-collector';
import type { SinkNodeDef, SourceNodeDef } from '../../../processor/internals/topology-nodes';
import { Record } from '../../../processor/record';
import { Serdes } from '../../../serde/serdes';
import type { ConsumedRecord } from '../../../client/consumed-record';
import { DEAD_LETTER_HEADERS, logAndFail, sendToDeadLetterTopic } from '../../exception-handlers';
import { SinkRecordWriter } from './sink-record-writer';
import { SourceRecordReader } from './source-record-reader';
import { resolveStreamsConfig, type StreamsConfig } from '../../streams-config';
import { TaskMetrics } from './task-metrics';

const source: SourceNodeDef = {
  kind: 'source',
  name: 'events',
  topics: ['events'],
  keySerde: Serdes.String() as never,
  valueSerde: Serdes.Json() as never,
};

const raw = (key: string | null, value: string | null, timestamp = 10): ConsumedRecord => ({
  topic: 'events',
  partition: 2,
  offset: 41,
  timestamp,
  key: key === null ? null : Buffer.from(key),
  value: value === null ? null : Buffer.from(value),
  headers: { origin: 'test' },
});

function setup(config: Partial<StreamsConfig> = {}) {
  const metrics = new TaskMetrics();
  const collector = new InMemoryRecordCollector();
  const logs: string[] = [];
  const common = {
    taskId: '0_2',
    config: resolveStreamsConfig({
      applicationId: 'app',
      bootstrapServers: ['localhost:9092'],
      ...config,
    }),
    recordCollector: collector,
    metrics,
    log: (m: string) => void logs.push(m),
  };
  const writer = new SinkRecordWriter({
    ...common,
    resolveTopic: (t) => t,
    partitionsFor: () => 4,
  });
  const reader = new SourceRecordReader({
    ...common,
    partitionFor: (topic, key) => writer.partitionFor(topic, key),
  });
  return { metrics, collector, logs, writer, reader };
}

describe('SourceRecordReader', () => {
  it('deserializes with the source serdes and keeps timestamp and headers', () => {
    const { reader, metrics } = setup();
    const record = reader.read(raw('alice', '{"amount":3}'), source, -1, []);
    expect(record).toEqual(new Record('alice', { amount: 3 }, 10, { origin: 'test' }));
    expect(metrics).toMatchObject({ skippedDeserialization: 0, skippedInvalidTimestamp: 0 });
  });

  it('skips and counts a negative timestamp', () => {
    const { reader, metrics, logs } = setup();
    expect(reader.read(raw('alice', '{}', -5), source, 100, [])).toBeUndefined();
    expect(metrics.skippedInvalidTimestamp).toBe(1);
    expect(logs).toEqual(['skipping record events-2@41: invalid timestamp -5']);
  });

  it('writes a record that does not deserialize to the dead-letter topic, unchanged, when the batch runs', () => {
    const { reader, metrics, collector } = setup({
      deserializationExceptionHandler: sendToDeadLetterTopic('dlq', () => undefined),
    });
    const sends: (() => void)[] = [];
    expect(reader.read(raw('alice', '{not json'), source, -1, sends)).toBeUndefined();
    // Sent when the task runs the batch (in the transaction of its offsets), not before.
    expect(collector.recordsFor('dlq')).toEqual([]);
    expect(sends).toHaveLength(1);
    sends.forEach((send) => send());
    expect(metrics).toMatchObject({ skippedDeserialization: 1, deadLettered: 1 });
    const [letter] = collector.recordsFor('dlq');
    expect(letter.key).toEqual(Buffer.from('alice'));
    expect(letter.value).toEqual(Buffer.from('{not json'));
    expect(letter.headers).toMatchObject({
      origin: 'test',
      [DEAD_LETTER_HEADERS.topic]: 'events',
      [DEAD_LETTER_HEADERS.partition]: '2',
      [DEAD_LETTER_HEADERS.offset]: '41',
    });
  });

  it('throws with the record position when the handler says FAIL', () => {
    const { reader } = setup({ deserializationExceptionHandler: logAndFail(() => undefined) });
    expect(() => reader.read(raw('alice', '{not json'), source, -1, [])).toThrow(
      /deserialization of events-2@41 failed and the handler chose FAIL/,
    );
  });
});

describe('SinkRecordWriter', () => {
  const sink: SinkNodeDef = {
    kind: 'sink',
    name: 'out',
    topic: 'out',
    keySerde: Serdes.String() as never,
    valueSerde: Serdes.Json() as never,
    parents: [],
  };

  it('partitions keys with murmur2 as Java producers, null keys round robin', () => {
    const { writer, collector, metrics } = setup();
    writer.send(sink, new Record('alice', { n: 1 }, 5), undefined);
    writer.send(sink, new Record(null, { n: 2 }, 6), undefined);
    writer.send(sink, new Record(null, { n: 3 }, 7), undefined);
    // toPositive(murmur2("alice")) % 4 = 1 (the rule of Java's producer; see the partitioner spec).
    expect(collector.recordsFor('out').map((r) => r.partition)).toEqual([1, 0, 1]);
    expect(metrics.produced).toBe(3);
  });

  it('gives an output that cannot be serialized to the production handler', () => {
    const bad = { ...sink, valueSerde: Serdes.Long() as never };
    const failing = setup();
    expect(() =>
      failing.writer.send(bad, new Record('alice', 'not a number', 5), {
        topic: 'events',
        partition: 2,
        offset: 41,
        headers: {},
      }),
    ).toThrow(/could not be serialized and the production handler chose FAIL/);
  });
});
