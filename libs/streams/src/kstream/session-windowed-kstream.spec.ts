import { TopologyError } from '../errors/topology.error';
import { Serdes } from '../serde/serdes';
import { Consumed } from './consumed';
import type { Reducer } from './functions';
import type { SessionStore } from '../state/session-store';
import { Materialized } from './materialized';
import { Produced } from './produced';
import { StreamsBuilder } from './streams-builder';
import { SessionWindowedSerde } from './windows/session-windowed.serde';
import { SessionWindows } from './windows/session-windows';
import { dslDriverPerTest, windowLabel } from '../../test-support/dsl-test-support';

const str = Serdes.String();
const long = Serdes.Long();

/** The clicks per key and session of 10 ms, in store `sessions`, written to `output`. */
function sessionCounts(): StreamsBuilder {
  const builder = new StreamsBuilder();
  builder
    .stream('clicks', Consumed.with(str, str))
    .groupByKey()
    .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
    .count(Materialized.as('sessions'))
    .toStream()
    .map((w, n) => ({ key: windowLabel(w), value: n }))
    .to('output', Produced.with(str, long));
  return builder;
}

/** The clicks per key and session of 5 ms reduced by `reducer`, sessions written to `output`. */
function sessionsReduced(reducer: Reducer<string>): StreamsBuilder {
  const builder = new StreamsBuilder();
  builder
    .stream('clicks', Consumed.with(str, str))
    .groupByKey()
    .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(5))
    .reduce(reducer, Materialized.as<string, string>('r').withValueSerde(str))
    .toStream()
    .filter((_k, v) => v !== null)
    .map((w, v) => ({ key: windowLabel(w), value: v }))
    .to('output', Produced.with(str, str));
  return builder;
}

describe('SessionWindowedKStream through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  it('counts per session, deleting sessions that merge into a larger one', async () => {
    const driver = await dsl.start(sessionCounts());
    await dsl.pipeLines('clicks', [
      'a=x@0',
      'a=x@5',
      'a=x@30',
      'a=x@20',
      'b=x@1', // late: stream time 30 - gap 10 > 1
      'a=x@3',
    ]);
    expect(dsl.lines('output', str, long)).toEqual([
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
    const driver = await dsl.start(sessionCounts(), { commitEveryRecord: false });
    await dsl.pipeLines('clicks', ['a=x@0', 'a=x@5', 'a=x@8', 'b=x@6']);
    await driver.commit();
    // [0,0] and [0,5] were merged away before any commit: never emitted, never logged.
    expect(dsl.lines('output', str, long)).toEqual(['a@0/8=3@8', 'b@6/6=1@6']);
    expect(driver.producedRecords('topology-test-driver-sessions-changelog')).toHaveLength(2);
    await dsl.pipeLines('clicks', ['a=x@12']);
    await driver.commit();
    expect(dsl.lines('output', str, long)).toEqual(['a@0/8=null@8', 'a@0/12=4@12']);
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
    await dsl.start(builder);
    await dsl.pipeLines('clicks', ['u=a@0', 'u=c@20', 'u=b@10']);
    expect(dsl.lines('output', keys, str)).toEqual([
      '[u@0/0]=a@0',
      '[u@20/20]=c@20',
      '[u@0/20]=acb@20',
    ]);
  });

  it('reduce combines the values of a session', async () => {
    await dsl.start(sessionsReduced((a, b) => `${a}${b}`));
    await dsl.pipeLines('clicks', ['k=x@1', 'k=y@4', 'k=z@20']);
    expect(dsl.lines('output')).toEqual(['k@1/1=x@1', 'k@1/4=xy@4', 'k@20/20=z@20']);
  });

  it('reduce hands a null value to the reducer once the session has an aggregate, as Kafka Streams', async () => {
    await dsl.start(sessionsReduced((a, b) => `${a}+${b}`));
    await dsl.pipeLines('clicks', ['k=x@1', 'k=null@4', 'k=null@20', 'k=y@22']);
    // null@20 starts a session without an aggregate: nothing is stored, y@22 starts afresh.
    expect(dsl.lines('output')).toEqual(['k@1/1=x@1', 'k@1/4=x+null@4', 'k@22/22=y@22']);
  });

  it('closes sessions by the stream time the aggregation saw: null keys do not count', async () => {
    const builder = new StreamsBuilder();
    builder
      .stream('clicks', Consumed.with(str, str))
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
      .count()
      .toStream()
      .filter((_k, v) => v !== null)
      .map((w, v) => ({ key: windowLabel(w), value: String(v) }))
      .to('output', Produced.with(str, str));
    await dsl.start(builder);
    await dsl.pipeLines('clicks', ['k=a@1', 'null=x@100', 'k=b@5']);
    expect(dsl.lines('output')).toEqual(['k@1/1=1@1', 'k@1/5=2@5']);
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
