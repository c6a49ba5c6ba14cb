import {
  type RocksDBConfigSetter,
  Serdes,
  StreamsBuilder,
  UnknownStateStoreError,
  type Serde,
  type Windowed,
} from '@nest-streams/streams';
import { TopologyTestDriver, type TestInputTopic } from '@nest-streams/testing';
import type { CaseResult, DifferentialCase, OutputRecord, StoreEntry } from './differential-case';
import type { DifferentialScenario } from './scenario';
import { scratchDir } from './scratch-dir';

const STRING = Serdes.String() as Serde<unknown>;

/**
 * RocksDB's write-ahead log on: the driver commits (flushes its stores) after every record, and
 * with the WAL on a flush fsyncs the log instead of writing each memtable to a new SST file,
 * ten times faster here. Where the bytes rest on disk is nothing the harness compares.
 */
const WAL_ON: RocksDBConfigSetter = {
  setConfig: (_store, options) => {
    options.walEnabled = true;
  },
};

/**
 * Runs one case in our TopologyTestDriver, as the Java side runs it in Kafka Streams': string
 * default serdes, the wall clock from 0, record caches as the case says; then reads every record
 * of the output topics (bytes) and the final contents of the stores.
 */
export async function runOurs(
  scenario: DifferentialScenario,
  testCase: DifferentialCase,
): Promise<CaseResult> {
  const builder = new StreamsBuilder();
  scenario.build(builder);
  const driver = await TopologyTestDriver.create(builder.build(), {
    config: {
      applicationId: 'differential',
      defaultKeySerde: STRING,
      defaultValueSerde: STRING,
      rocksDBConfigSetter: WAL_ON,
      stateDir: scratchDir(),
      ...(testCase.caching ? {} : { statestoreCacheMaxBytes: 0 }),
    },
    logger: { warn: () => undefined },
  });
  let failure: { error: string; errorStep: number } | undefined;
  try {
    try {
      await pipe(driver, testCase);
    } catch (e: unknown) {
      if (!(e instanceof StepFailure)) throw e;
      failure = { error: describe(e.cause), errorStep: e.step };
    }
    const outputs: Record<string, OutputRecord[]> = {};
    for (const topic of testCase.outputs) {
      outputs[topic] = driver.producedRecords(topic).map((r) => ({
        k: r.key === null ? null : r.key.toString('base64'),
        v: r.value === null ? null : r.value.toString('base64'),
        ts: r.timestamp,
      }));
    }
    const stores: Record<string, StoreEntry[]> = {};
    for (const spec of testCase.stores) stores[spec.name] = await dumpStore(driver, spec);
    return { id: testCase.id, outputs, stores, ...failure };
  } finally {
    await driver.close();
  }
}

/** A step whose processing threw: its index in the case's steps. */
class StepFailure extends Error {
  constructor(
    readonly step: number,
    override readonly cause: unknown,
  ) {
    super(`step ${step} failed`);
  }
}

async function pipe(driver: TopologyTestDriver, testCase: DifferentialCase): Promise<void> {
  const topics = new Map<string, TestInputTopic<string, string>>();
  for (const [i, step] of testCase.steps.entries()) {
    try {
      if (step.length === 2) {
        await driver.advanceWallClockTime(step[1]);
        continue;
      }
      const [topic, key, value, timestamp] = step;
      let input = topics.get(topic);
      if (!input) {
        input = driver.createInputTopic(topic, Serdes.String(), Serdes.String());
        topics.set(topic, input);
      }
      await input.pipeInput(key, value, timestamp);
    } catch (e: unknown) {
      throw new StepFailure(i, e);
    }
  }
}

async function dumpStore(
  driver: TopologyTestDriver,
  spec: DifferentialCase['stores'][number],
): Promise<StoreEntry[]> {
  switch (spec.kind) {
    case 'kv': {
      try {
        const rows = await driver.getTimestampedKeyValueStore(spec.name).allAsync();
        return rows.map(({ key, value }) => ({
          ...entry(key, value.value),
          ts: value.timestamp,
        }));
      } catch (e: unknown) {
        if (!(e instanceof UnknownStateStoreError) || !e.message.includes('plain values')) throw e;
        const rows = await driver.getKeyValueStore(spec.name).allAsync();
        return rows.map(({ key, value }) => entry(key, value));
      }
    }
    case 'window': {
      const store = driver.getTimestampedWindowStore(spec.name);
      const rows = await store.fetchRangeAsync(undefined, undefined, 0, Number.MAX_SAFE_INTEGER);
      return rows.map(({ key, value }) => ({ ...windowed(key, value.value), ts: value.timestamp }));
    }
    case 'session': {
      const store = driver.getSessionStore(spec.name);
      const rows = [];
      for (const key of spec.keys ?? []) rows.push(...(await store.fetchAsync(key)));
      return rows.map(({ key, value }) => windowed(key, value));
    }
    default:
      throw new Error(`unknown store kind ${spec.kind}`);
  }
}

function windowed(key: Windowed<unknown>, value: unknown): StoreEntry {
  return { ...entry(key.key, value), start: key.window.start, end: key.window.end };
}

function entry(key: unknown, value: unknown): StoreEntry {
  return { k: String(key), v: value === null || value === undefined ? null : String(value) };
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
}
