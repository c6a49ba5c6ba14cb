import {
  Consumed,
  type KeyValueStore,
  logAndContinue,
  logAndContinueProcessing,
  logAndFail,
  Materialized,
  type ProcessorContext,
  type Record,
  Serdes,
  Stores,
  StreamsBuilder,
  StreamsProcessingError,
  type StreamsConfig,
} from '@nest-streams/streams';
import { TopologyTestDriver } from '../topology-test-driver';

const str = Serdes.String();
const json = Serdes.Json<{ name: string }>();

/** `users` as a global table of JSON values; `regions` upper-cased, failing on `boom`. */
function topology() {
  const builder = new StreamsBuilder();
  builder.globalTable('users', Consumed.with(str, json), Materialized.as('users-global'));
  builder.addGlobalStore(
    Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('upper'), str, str),
    'regions',
    Consumed.with(str, str),
    () => {
      let store!: KeyValueStore<string, string>;
      return {
        init(context: ProcessorContext<never, never>) {
          store = context.getStateStore<KeyValueStore<string, string>>('upper');
        },
        process(record: Record<string, string>) {
          if (record.value === 'boom') throw new Error('processor failed');
          store.put(record.key, record.value.toUpperCase());
        },
      };
    },
  );
  builder.stream('orders', Consumed.with(str, str)).to('out');
  return builder.build();
}

describe("the driver's global stores and the exception handlers", () => {
  const warnings: string[] = [];
  const start = (config: Partial<StreamsConfig>) =>
    TopologyTestDriver.create(topology(), {
      config,
      logger: { warn: (message: string) => warnings.push(message) },
    });
  beforeEach(() => (warnings.length = 0));

  it('skips and counts what the handlers continue after, as the runtime does', async () => {
    const driver = await start({
      deserializationExceptionHandler: logAndContinue(() => undefined),
      processingExceptionHandler: logAndContinueProcessing({ log: () => undefined }),
    });
    try {
      const raw = driver.createInputTopic('users', str, str);
      await raw.pipeInput('u1', 'not json');
      await raw.pipeInput('u2', '{"name":"bo"}');
      const regions = driver.createInputTopic('regions', str, str);
      await regions.pipeInput('r1', 'boom');
      await regions.pipeInput('r2', 'west');
      expect(driver.getKeyValueStore('users-global').get('u1')).toBeUndefined();
      expect(driver.getKeyValueStore('users-global').get('u2')).toEqual({ name: 'bo' });
      expect(driver.getKeyValueStore('upper').get('r1')).toBeUndefined();
      expect(driver.getKeyValueStore('upper').get('r2')).toBe('WEST');
      expect(driver.metrics()).toMatchObject({ skippedDeserialization: 1, skippedProcessing: 1 });
    } finally {
      await driver.close();
    }
  });

  it('fails the pipe when a handler says FAIL', async () => {
    const driver = await start({ deserializationExceptionHandler: logAndFail(() => undefined) });
    try {
      await expect(
        driver.createInputTopic('users', str, str).pipeInput('u1', 'not json'),
      ).rejects.toThrow(StreamsProcessingError);
      await expect(
        driver.createInputTopic('regions', str, str).pipeInput('r1', 'boom'),
      ).rejects.toThrow(
        'the update processor of global topic regions failed on regions-0@0: processor failed',
      );
    } finally {
      await driver.close();
    }
  });
});
