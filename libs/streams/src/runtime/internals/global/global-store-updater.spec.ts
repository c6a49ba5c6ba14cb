import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchedRecord } from '../../../client/assigned-partition-reader';
import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import { UnknownStateStoreError } from '../../../errors/unknown-state-store.error';
import { Consumed } from '../../../kstream/consumed';
import { Materialized } from '../../../kstream/materialized';
import { StreamsBuilder } from '../../../kstream/streams-builder';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import { Serdes } from '../../../serde/serdes';
import type { KeyValueStore } from '../../../state/key-value-store';
import { Stores } from '../../../state/stores';
import type { TimestampedKeyValueStore } from '../../../state/value-and-timestamp';
import {
  type DeserializationExceptionHandler,
  HandlerResponse,
  logAndContinue,
  logAndFail,
} from '../../exception-handlers';
import type { ProcessingExceptionHandler } from '../../processing-exception-handler';
import { resolveStreamsConfig } from '../../streams-config';
import { GlobalStoreUpdater } from './global-store-updater';

const str = Serdes.String();
const logger = { debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() };

function fetched(
  offset: number,
  key: string,
  value: string | null,
  timestamp = 100,
): FetchedRecord {
  return {
    offset,
    key: Buffer.from(key),
    value: value === null ? null : Buffer.from(value),
    timestamp,
    headers: {},
  };
}

describe('GlobalStoreUpdater', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'global-updater-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** `users` as a global table (in memory) and `regions` upper-cased by a processor. */
  function updater(
    handler: DeserializationExceptionHandler = logAndContinue(() => undefined),
    deadLetterQueueTopic?: string,
    processingExceptionHandler?: ProcessingExceptionHandler,
  ) {
    const seen: { offset: number; partition: number }[] = [];
    const builder = new StreamsBuilder();
    builder.globalTable(
      'users',
      Consumed.with(Serdes.Json<{ name: string }>(), str),
      Materialized.as<{ name: string }, string>(Stores.inMemoryKeyValueStore('users-store')),
    );
    builder.addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('upper'), str, str),
      'regions',
      Consumed.with(str, str),
      () => {
        let context!: ProcessorContext<never, never>;
        let store!: KeyValueStore<string, string>;
        return {
          init(c: ProcessorContext<never, never>) {
            context = c;
            store = c.getStateStore<KeyValueStore<string, string>>('upper');
          },
          process(record: Record<string, string>) {
            const meta = context.recordMetadata()!;
            seen.push({ offset: meta.offset, partition: meta.partition });
            if (record.value === 'boom') throw new Error('processor failed');
            store.put(record.key, record.value.toUpperCase());
          },
        };
      },
    );
    const config = resolveStreamsConfig({
      applicationId: 'global-updater',
      bootstrapServers: ['127.0.0.1:1'],
      stateDir: dir,
      deserializationExceptionHandler: handler,
      deadLetterQueueTopic,
      processingExceptionHandler,
    });
    const topology = builder.build();
    return {
      seen,
      updater: new GlobalStoreUpdater({ topology, config, globalDir: dir, logger }),
    };
  }

  it('puts a global table’s records as they are, with their timestamps', async () => {
    const { updater: u } = updater();
    await u.open();
    expect(u.topics()).toEqual(['users', 'regions']);
    await u.update('users', 2, [
      fetched(0, '{"name":"a"}', 'ann', 5),
      fetched(1, '{"name":"b"}', 'bob', 6),
      fetched(2, '{"name":"a"}', null, 7),
    ]);
    const store = u.stores.get('users-store') as unknown as TimestampedKeyValueStore<
      { name: string },
      string
    >;
    expect(store.get({ name: 'a' })).toBeUndefined();
    expect(store.get({ name: 'b' })).toEqual({ value: 'bob', timestamp: 6 });
    await u.close();
  });

  it('runs addGlobalStore’s processor on every record, with its metadata', async () => {
    const { updater: u, seen } = updater();
    await u.open();
    await u.update('regions', 1, [fetched(10, 'r1', 'north'), fetched(11, 'r2', 'south')]);
    const store = u.stores.get('upper') as unknown as KeyValueStore<string, string>;
    expect(store.get('r1')).toBe('NORTH');
    expect(store.get('r2')).toBe('SOUTH');
    expect(seen).toEqual([
      { offset: 10, partition: 1 },
      { offset: 11, partition: 1 },
    ]);
    await u.close();
  });

  it('skips a record that does not deserialize when the handler continues', async () => {
    const { updater: u } = updater();
    await u.open();
    await u.update('users', 0, [fetched(0, 'not json', 'x'), fetched(1, '{"name":"c"}', 'cy')]);
    const store = u.stores.get('users-store') as unknown as TimestampedKeyValueStore<
      { name: string },
      string
    >;
    expect(store.get({ name: 'c' })?.value).toBe('cy');
    expect(store.approximateNumEntries()).toBe(1);
    expect(u.skipped).toBe(1);
    await u.close();
  });

  it('asks the handler about a record that does not deserialize, and writes no dead letter for it', async () => {
    for (const [handlerTopic, configTopic] of [
      ['dlq', undefined],
      [undefined, 'dlq'],
    ]) {
      logger.warn.mockClear();
      const asked: string[] = [];
      const handler: DeserializationExceptionHandler = {
        deadLetterTopic: handlerTopic,
        handle: (record, error) => {
          asked.push(`${record.topic}-${record.partition}@${record.offset}: ${error.name}`);
          return HandlerResponse.CONTINUE;
        },
      };
      const { updater: u } = updater(handler, configTopic);
      await u.open();
      const processed = await u.update('users', 1, [
        fetched(7, 'not json', 'x'),
        fetched(8, '{"name":"d"}', 'di'),
      ]);
      expect({ processed, skipped: u.skipped, asked }).toEqual({
        processed: 1,
        skipped: 1,
        asked: ['users-1@7: SerializationError'],
      });
      expect(logger.warn.mock.calls).toEqual([
        [
          "no dead letter is written to dlq for users-1@7, a global store's topic (every instance reads it whole): the record is skipped",
        ],
      ]);
      await u.close();
    }
  });

  it('asks the processing exception handler about a failing update processor, as Kafka Streams does', async () => {
    logger.warn.mockClear();
    const asked: string[] = [];
    const handler: ProcessingExceptionHandler = {
      handle: (context, record, error) => {
        asked.push(
          `${context.processorNodeId} ${context.taskId} ${context.topic}-${context.partition}@${context.offset} ${String(record?.key)}: ${error.message}`,
        );
        return HandlerResponse.CONTINUE;
      },
    };
    const { updater: u } = updater(undefined, 'dlq', handler);
    await u.open();
    const processed = await u.update('regions', 0, [
      fetched(4, 'r1', 'boom'),
      fetched(5, 'r2', 'west'),
    ]);
    expect({ processed, skipped: u.skippedProcessing, asked }).toEqual({
      processed: 1,
      skipped: 1,
      asked: ['KTABLE-SOURCE-0000000003 global regions-0@4 r1: processor failed'],
    });
    expect((u.stores.get('upper') as unknown as KeyValueStore<string, string>).get('r2')).toBe(
      'WEST',
    );
    expect(logger.warn.mock.calls).toEqual([
      [
        "no dead letter is written to dlq for regions-0@4, a global store's topic (every instance reads it whole): the record is skipped",
      ],
    ]);
    await u.close();
  });

  it('fails with the record’s place when the handler fails, or the processor throws', async () => {
    const { updater: u } = updater(logAndFail(() => undefined));
    await u.open();
    const bad = u.update('users', 0, [fetched(3, 'not json', 'x')]);
    await expect(bad).rejects.toThrow(StreamsProcessingError);
    await expect(u.update('users', 0, [fetched(3, 'not json', 'x')])).rejects.toMatchObject({
      origin: { topic: 'users', partition: 0, offset: 3 },
    });
    await expect(u.update('regions', 0, [fetched(4, 'r', 'boom')])).rejects.toThrow(
      /processor failed/,
    );
    await u.close();
  });

  it('gives update processors global stores only, and no stream time', async () => {
    const builder = new StreamsBuilder();
    let context!: ProcessorContext<never, never>;
    builder.addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('kv'), str, str),
      't',
      Consumed.with(str, str),
      () => ({
        init: (c: ProcessorContext<never, never>) => (context = c),
        process: () => undefined,
      }),
    );
    const config = resolveStreamsConfig({
      applicationId: 'global-updater',
      bootstrapServers: ['127.0.0.1:1'],
      stateDir: dir,
    });
    const u = new GlobalStoreUpdater({ topology: builder.build(), config, globalDir: dir, logger });
    await u.open();
    expect(() => context.getStateStore('other')).toThrow(UnknownStateStoreError);
    expect(() => context.currentStreamTimeMs()).toThrow(/no stream time/);
    expect(u.persistent('t')).toBe(false);
    await u.close();
  });
});
