import { TopologyTestDriver, type TopologyTestDriverOptions } from '@nest-streams/testing';
import type { StreamsBuilder } from '../src/kstream/streams-builder';
import type { Serde } from '../src/serde/serde';
import { Serdes } from '../src/serde/serdes';
import type { Windowed } from '../src/windowing/windowed';

/** A record to pipe into an input topic: `[key, value, timestamp]`. */
export type PipedRecord<K = string, V = string> = readonly [K | null, V | null, number];

/**
 * A string record for one of several input topics: `[side, key, value, timestamp]`, `side`
 * naming the topic (see {@link DslTestDriver.linesPerSideRecord}).
 */
export type SideRecord<S extends string> = readonly [S, string, string | null, number];

const strings = Serdes.String();

/**
 * The TopologyTestDriver of a DSL spec, one per test: `start` builds the topology and creates
 * the driver; the driver of a test is closed after it (see {@link dslDriverPerTest}).
 */
export class DslTestDriver {
  private current: TopologyTestDriver | undefined;

  /** The running driver; throws before `start`. */
  get driver(): TopologyTestDriver {
    if (!this.current) throw new Error('no TopologyTestDriver: call start() first');
    return this.current;
  }

  /** Closes the previous driver, if any, and runs `builder`'s topology in a new one. */
  async start(
    builder: StreamsBuilder,
    options?: TopologyTestDriverOptions,
  ): Promise<TopologyTestDriver> {
    await this.close();
    this.current = await TopologyTestDriver.create(builder.build(), options);
    return this.current;
  }

  /** Pipes `records` into `topic` in order, with string serdes unless others are given. */
  async pipe<K = string, V = string>(
    topic: string,
    records: readonly PipedRecord<K, V>[],
    keySerde: Serde<K> = strings as unknown as Serde<K>,
    valueSerde: Serde<V> = strings as unknown as Serde<V>,
  ): Promise<void> {
    const input = this.driver.createInputTopic(topic, keySerde, valueSerde);
    for (const [key, value, timestamp] of records) await input.pipeInput(key, value, timestamp);
  }

  /**
   * Pipes string records written as `lines()` reads them, `key=value@timestamp` (`null` for a
   * null key or value), into `topic` in order.
   */
  async pipeLines(topic: string, lines: readonly string[]): Promise<void> {
    await this.pipe(topic, lines.map(parseLine));
  }

  /**
   * Pipes `lines` (as {@link pipeLines} reads them) into `inTopic` one at a time and returns,
   * after each, the records written to `outTopic` meanwhile (as {@link lines} prints them).
   */
  async linesPerRecord(
    inTopic: string,
    lines: readonly string[],
    outTopic = 'out',
  ): Promise<string[][]> {
    const out: string[][] = [];
    for (const line of lines) {
      await this.pipeLines(inTopic, [line]);
      out.push(this.lines(outTopic));
    }
    return out;
  }

  /**
   * Pipes `records` one at a time, each into the topic `topics` names for its side (string
   * serdes), and returns, after each, the records written to `outTopic` meanwhile (as
   * {@link lines} prints them).
   */
  async linesPerSideRecord<S extends string>(
    topics: Readonly<Record<S, string>>,
    records: readonly SideRecord<S>[],
    outTopic = 'out',
  ): Promise<string[][]> {
    const out: string[][] = [];
    for (const [side, key, value, timestamp] of records) {
      await this.pipe(topics[side], [[key, value, timestamp]]);
      out.push(this.lines(outTopic));
    }
    return out;
  }

  /**
   * The records written to `topic` that were not read yet, as `key=value@timestamp` lines
   * (string serdes unless others are given).
   */
  lines<K = string, V = string>(
    topic: string,
    keySerde: Serde<K> = strings as unknown as Serde<K>,
    valueSerde: Serde<V> = strings as unknown as Serde<V>,
  ): string[] {
    return this.driver
      .createOutputTopic(topic, keySerde, valueSerde)
      .readRecordsToList()
      .map(({ key, value, timestamp }) => `${String(key)}=${String(value)}@${timestamp}`);
  }

  async close(): Promise<void> {
    const driver = this.current;
    this.current = undefined;
    await driver?.close();
  }
}

/** A {@link DslTestDriver} whose driver is closed after each test of the calling `describe`. */
export function dslDriverPerTest(): DslTestDriver {
  const dsl = new DslTestDriver();
  afterEach(() => dsl.close());
  return dsl;
}

function parseLine(line: string): PipedRecord {
  const equals = line.indexOf('=');
  const at = line.lastIndexOf('@');
  const timestamp = Number(line.slice(at + 1));
  if (equals < 0 || at < equals || !Number.isInteger(timestamp)) {
    throw new Error(`not a key=value@timestamp record: ${line}`);
  }
  const orNull = (text: string): string | null => (text === 'null' ? null : text);
  return [orNull(line.slice(0, equals)), orNull(line.slice(equals + 1, at)), timestamp];
}

/**
 * Records for windows of size 10, in and out of order across windows (`k=e@9` and `k=h@3`
 * arrive late), as `key=value@timestamp`: the input the windowed specs' expected records
 * were recorded for with Kafka Streams 4.4.
 */
export const WINDOWED_INPUT: readonly string[] = [
  'k=a@1',
  'k=b@5',
  'j=c@8',
  'k=d@12',
  'k=e@9',
  'j=f@16',
  'k=g@20',
  'k=h@3',
  'j=i@40',
];

/** A windowed key as `key@start/end`. */
export function windowLabel(windowed: Windowed<string>): string {
  return `${windowed.key}@${windowed.window.start}/${windowed.window.end}`;
}
