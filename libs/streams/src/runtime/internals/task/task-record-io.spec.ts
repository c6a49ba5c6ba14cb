/**
 * A task's record input (SourceRecordReader) and output (SinkRecordWriter), tested together:
 * dead letters are partitioned by the output's rule.
 */
import { InMemoryRecordCollector } from '../../../processor/internals/in-memory-record-collector';
import type { SinkNodeDef, SourceNodeDef } from '../../../processor/internals/topology-nodes';
import { Record } from '../../../processor/record';
import { Serdes } from '../../../serde/serdes';
import type { ConsumedRecord } from '../../../client/consumed-record';
import {
  DEAD_LETTER_HEADERS,
  HandlerResponse,
  logAndContinue,
  logAndContinueOnProductionError,
  logAndFail,
  sendToDeadLetterTopic,
} from '../../exception-handlers';
import { DeadLetterWriter } from './dead-letter-writer';
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

/** The headers a dead letter of `raw(...)` carries: the record's own, and where it came from. */
const RAW_LETTER_HEADERS = {
  origin: 'test',
  [DEAD_LETTER_HEADERS.topic]: 'events',
  [DEAD_LETTER_HEADERS.partition]: '2',
  [DEAD_LETTER_HEADERS.offset]: '41',
};

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
  const deadLetters = new DeadLetterWriter({
    recordCollector: collector,
    partitionFor: (topic: string, key: Buffer | null): number => writer.partitionFor(topic, key),
    metrics,
  });
  let currentSource: ConsumedRecord | undefined;
  const writer: SinkRecordWriter = new SinkRecordWriter({
    ...common,
    deadLetters,
    currentSource: () => currentSource,
    resolveTopic: (t) => t,
    partitionsFor: () => 4,
  });
  const reader = new SourceRecordReader({ ...common, deadLetters });
  const processing = (source?: ConsumedRecord) => {
    currentSource = source;
  };
  return { metrics, collector, logs, writer, reader, deadLetters, processing };
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
    expect(letter.headers).toMatchObject(RAW_LETTER_HEADERS);
  });

  it('dead-letters to deadLetterQueueTopic (KIP-1034) when the handler continues and names no topic', () => {
    const { reader, metrics, collector } = setup({
      deserializationExceptionHandler: logAndContinue(() => undefined),
      deadLetterQueueTopic: 'all-errors',
    });
    const sends: (() => void)[] = [];
    expect(reader.read(raw('alice', '{not json'), source, -1, sends)).toBeUndefined();
    sends.forEach((send) => send());
    expect(metrics).toMatchObject({ skippedDeserialization: 1, deadLettered: 1 });
    const [letter] = collector.recordsFor('all-errors');
    expect(letter.headers?.[DEAD_LETTER_HEADERS.exception]).toBe('SerializationError');
    expect(letter.headers?.[DEAD_LETTER_HEADERS.offset]).toBe('41');
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

  const origin = { topic: 'events', partition: 2, offset: 41, headers: {} };
  const bad = { ...sink, valueSerde: Serdes.Long() as never };

  it('on CONTINUE drops the output, counts it and dead-letters the input record being processed', () => {
    const { writer, collector, metrics, processing } = setup({
      productionExceptionHandler: logAndContinueOnProductionError(() => undefined),
      deadLetterQueueTopic: 'dlq',
    });
    processing(raw('alice', '{"amount":3}'));
    writer.send(bad, new Record('alice', 'not a number', 5), origin);
    expect(collector.recordsFor('out')).toEqual([]);
    expect(metrics).toMatchObject({ produced: 0, skippedProduction: 1, deadLettered: 1 });
    const [letter] = collector.recordsFor('dlq');
    expect(letter.value).toEqual(Buffer.from('{"amount":3}'));
    expect(letter.headers).toMatchObject(RAW_LETTER_HEADERS);
  });

  it('treats RETRY of a serialization error as FAIL, with a warning', () => {
    const kinds: (string | undefined)[] = [];
    const { writer, logs } = setup({
      productionExceptionHandler: {
        handle: (record) => {
          kinds.push(record.kind);
          return HandlerResponse.RETRY;
        },
      },
    });
    expect(() => writer.send(bad, new Record('alice', 'x', 5), origin)).toThrow(
      /production handler chose FAIL/,
    );
    expect(kinds).toEqual(['serialization']);
    expect(logs).toEqual([
      'the production handler answered RETRY to a serialization error of a record to out: treated as FAIL',
    ]);
  });
});
