import { TopologyTestDriver } from '@nest-streams/testing';
import { TopologyError } from '../errors/topology.error';
import { Serdes } from '../serde/serdes';
import { Consumed } from './consumed';
import type { SessionStore } from '../state/session-store';
import { Materialized } from './materialized';
import { Produced } from './produced';
import { StreamsBuilder } from './streams-builder';
import { SessionWindowedSerde } from './windows/session-windowed.serde';
import { SessionWindows } from './windows/session-windows';

const str = Serdes.String();
const long = Serdes.Long();

describe('SessionWindowedKStream through the TopologyTestDriver', () => {
  let driver: TopologyTestDriver | undefined;
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  it('counts per session, deleting sessions that merge into a larger one', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('clicks', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
      .count(Materialized.as('sessions'))
      .toStream()
      .map((w, n) => ({ key: `${w.key}@${w.window.start}/${w.window.end}`, value: n }))
      .to('output', Produced.with(str, long));
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('clicks', str, str);
    await input.pipeInput('a', 'x', 0);
    await input.pipeInput('a', 'x', 5);
    await input.pipeInput('a', 'x', 30);
    await input.pipeInput('a', 'x', 20);
    await input.pipeInput('b', 'x', 1); // late: stream time 30 - gap 10 > 1
    await input.pipeInput('a', 'x', 3);
    expect(
      driver
        .createOutputTopic<string, number>('output', str, long)
        .readRecordsToList()
        .map(({ key, value, timestamp }) => `${key}=${value}@${timestamp}`),
    ).toEqual([
      'a@0/0=1@0',
      'a@0/0=null@0',
      'a@0/5=2@5',
      'a@30/30=1@30',
      'a@30/30=null@30',
      'a@20/30=2@30',
    ]);
    const store = driver.getStateStore<SessionStore<string, number>>('sessions');
    // Retention defaults to gap + grace (10 ms): [0, 5] expired once stream time reached 30.
    expect(store.fetch('a').map((s) => `${s.key.toString()}=${s.value}`)).toEqual(['[a@20/30]=2']);
    expect(driver.producedRecords('topology-test-driver-sessions-changelog')).toHaveLength(6);
  });

  it('with caching, emits and logs each session once per commit', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('clicks', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
      .count(Materialized.as('sessions'))
      .toStream()
      .map((w, n) => ({ key: `${w.key}@${w.window.start}/${w.window.end}`, value: n }))
      .to('output', Produced.with(str, long));
    driver = await TopologyTestDriver.create(builder.build(), { commitEveryRecord: false });
    const input = driver.createInputTopic('clicks', str, str);
    for (const t of [0, 5, 8]) await input.pipeInput('a', 'x', t);
    await input.pipeInput('b', 'x', 6);
    await driver.commit();
    const output = driver.createOutputTopic<string, number>('output', str, long);
    // [0,0] and [0,5] were merged away before any commit: never emitted, never logged.
    expect(output.readKeyValuesToList()).toEqual([
      { key: 'a@0/8', value: 3 },
      { key: 'b@6/6', value: 1 },
    ]);
    expect(driver.producedRecords('topology-test-driver-sessions-changelog')).toHaveLength(2);
    await input.pipeInput('a', 'x', 12);
    await driver.commit();
    expect(output.readKeyValuesToList()).toEqual([
      { key: 'a@0/8', value: null },
      { key: 'a@0/12', value: 4 },
    ]);
  });

  it('aggregates with a merger and writes session-windowed keys with their serde', async () => {
    const builder = new StreamsBuilder();
    const keys = new SessionWindowedSerde(str);
    builder
      .stream('clicks', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 100))
      .aggregate<string>(
        () => '',
        (_k, v, agg) => agg + v,
        (_k, a, b) => a + b,
        Materialized.as<string, string>('pages').withValueSerde(str),
      )
      .toStream()
      .filter((_k, v) => v !== null)
      .to('output', Produced.with(keys, str));
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('clicks', str, str);
    await input.pipeInput('u', 'a', 0);
    await input.pipeInput('u', 'c', 20);
    await input.pipeInput('u', 'b', 10);
    expect(
      driver
        .createOutputTopic('output', keys, str)
        .readKeyValuesToList()
        .map(({ key, value }) => `${String(key)}=${value}`),
    ).toEqual(['[u@0/0]=a', '[u@20/20]=c', '[u@0/20]=acb']);
  });

  it('reduce combines the values of a session', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('clicks', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(5))
      .reduce((a, b) => `${a}${b}`, Materialized.as<string, string>('r').withValueSerde(str))
      .toStream()
      .filter((_k, v) => v !== null)
      .map((w, v) => ({ key: `${w.key}@${w.window.start}/${w.window.end}`, value: v }))
      .to('output', Produced.with(str, str));
    driver = await TopologyTestDriver.create(builder.build());
    const input = driver.createInputTopic('clicks', str, str);
    await input.pipeInput('k', 'x', 1);
    await input.pipeInput('k', 'y', 4);
    await input.pipeInput('k', 'z', 20);
    expect(driver.createOutputTopic('output', str, str).readKeyValuesToList()).toEqual([
      { key: 'k@1/1', value: 'x' },
      { key: 'k@1/4', value: 'xy' },
      { key: 'k@20/20', value: 'z' },
    ]);
  });

  it('rejects a retention shorter than gap plus grace', () => {
    const windowed = new StreamsBuilder()
      .stream<string, string>('clicks')
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(1000, 500));
    expect(() => windowed.count(Materialized.as<string, number>('s').withRetention(1000))).toThrow(
      TopologyError,
    );
  });
});
