import { TopologyTestDriver } from '@nest-streams/testing';
import { Serdes } from '../serde/serdes';
import type { KeyValueStore } from '../state/key-value-store';
import type { ValueAndTimestamp } from '../state/value-and-timestamp';
import { Consumed } from './consumed';
import { Joined } from './joined';
import { Materialized } from './materialized';
import { Produced } from './produced';
import { StreamsBuilder } from './streams-builder';

const str = Serdes.String();
const strings = Consumed.with(str, str);
const toStrings = Produced.with(str, str);

type Out = { key: string | null; value: string | null; timestamp: number };

describe('KTable operators through the TopologyTestDriver', () => {
  let driver: TopologyTestDriver | undefined;
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  async function start(builder: StreamsBuilder): Promise<TopologyTestDriver> {
    driver = await TopologyTestDriver.create(builder.build());
    return driver;
  }

  function read(topic: string): Out[] {
    return driver!
      .createOutputTopic(topic, str, str)
      .readRecordsToList()
      .map(({ key, value, timestamp }) => ({ key, value, timestamp }));
  }

  it('a source table upserts and deletes, and toStream emits every change', async () => {
    const builder = new StreamsBuilder();
    builder.table('users', strings, Materialized.as('users')).toStream().to('output', toStrings);
    const d = await start(builder);
    const users = d.createInputTopic('users', str, str);
    await users.pipeInput('u1', 'alice', 1);
    await users.pipeInput('u2', 'bob', 2);
    await users.pipeInput('u1', 'alicia', 3);
    await users.pipeInput('u2', null, 4);
    await users.pipeInput(null, 'nobody', 5);
    expect(read('output')).toEqual([
      { key: 'u1', value: 'alice', timestamp: 1 },
      { key: 'u2', value: 'bob', timestamp: 2 },
      { key: 'u1', value: 'alicia', timestamp: 3 },
      { key: 'u2', value: null, timestamp: 4 },
    ]);
    const store = d.getStateStore<KeyValueStore<string, ValueAndTimestamp<string>>>('users');
    expect(store.get('u1')).toEqual({ value: 'alicia', timestamp: 3 });
    expect(store.get('u2')).toBeUndefined();
  });

  it('filter turns rows that fail into deletes; a materialized filter is queryable', async () => {
    const builder = new StreamsBuilder();
    const active = builder
      .table('users', strings)
      .filter((_k, v) => v !== 'banned', undefined, Materialized.as('active'));
    expect(active.queryableStoreName).toBe('active');
    active.toStream().to('output', toStrings);
    const d = await start(builder);
    const users = d.createInputTopic('users', str, str);
    await users.pipeInput('u1', 'ok', 1);
    await users.pipeInput('u2', 'banned', 2);
    await users.pipeInput('u1', 'banned', 3);
    expect(read('output')).toEqual([
      { key: 'u1', value: 'ok', timestamp: 1 },
      { key: 'u2', value: null, timestamp: 2 },
      { key: 'u1', value: null, timestamp: 3 },
    ]);
    const store = d.getStateStore<KeyValueStore<string, ValueAndTimestamp<string>>>('active');
    expect(store.get('u1')).toBeUndefined();
  });

  it('filterNot and mapValues transform rows; deletes stay deletes', async () => {
    const builder = new StreamsBuilder();
    builder
      .table('users', strings)
      .filterNot((k) => k === 'skip')
      .mapValues((v, k) => `${k}:${v.toUpperCase()}`)
      .toStream()
      .to('output', toStrings);
    const d = await start(builder);
    const users = d.createInputTopic('users', str, str);
    await users.pipeInput('u1', 'a', 1);
    await users.pipeInput('skip', 'b', 2);
    await users.pipeInput('u1', null, 3);
    expect(read('output')).toEqual([
      { key: 'u1', value: 'u1:A', timestamp: 1 },
      { key: 'skip', value: null, timestamp: 2 },
      { key: 'u1', value: null, timestamp: 3 },
    ]);
  });

  it('inner table-table join updates on either side at the later timestamp', async () => {
    const builder = new StreamsBuilder();
    const left = builder.table('left', strings);
    const right = builder.table('right', strings);
    left
      .join(
        right,
        (l, r) => `${l}+${r}`,
        undefined,
        Materialized.as<string, string>('joined').withValueSerde(str),
      )
      .toStream()
      .to('output', toStrings);
    const d = await start(builder);
    const l = d.createInputTopic('left', str, str);
    const r = d.createInputTopic('right', str, str);
    await l.pipeInput('a', 'l1', 1);
    await r.pipeInput('a', 'r1', 2);
    await l.pipeInput('a', 'l2', 3);
    await r.pipeInput('a', 'r0', 0);
    await r.pipeInput('a', null, 4);
    await l.pipeInput('b', 'x', 5);
    expect(read('output')).toEqual([
      { key: 'a', value: 'l1+r1', timestamp: 2 },
      { key: 'a', value: 'l2+r1', timestamp: 3 },
      { key: 'a', value: 'l2+r0', timestamp: 3 },
      { key: 'a', value: null, timestamp: 4 },
    ]);
    const store = d.getStateStore<KeyValueStore<string, ValueAndTimestamp<string>>>('joined');
    expect(store.get('a')).toBeUndefined();
  });

  it('left table-table join keeps every left row, joined with null when right is absent', async () => {
    const builder = new StreamsBuilder();
    const left = builder.table('left', strings);
    const right = builder.table('right', strings);
    left
      .leftJoin(right, (l, r) => `${l}+${r ?? 'null'}`)
      .toStream()
      .to('output', toStrings);
    const d = await start(builder);
    const l = d.createInputTopic('left', str, str);
    const r = d.createInputTopic('right', str, str);
    await l.pipeInput('a', 'l1', 1);
    await r.pipeInput('a', 'r1', 2);
    await r.pipeInput('a', null, 3);
    await l.pipeInput('a', null, 4);
    await r.pipeInput('b', 'r', 5);
    expect(read('output')).toEqual([
      { key: 'a', value: 'l1+null', timestamp: 1 },
      { key: 'a', value: 'l1+r1', timestamp: 2 },
      { key: 'a', value: 'l1+null', timestamp: 3 },
      { key: 'a', value: null, timestamp: 4 },
    ]);
  });

  it('stream-table join and left join look up the current row at the stream time', async () => {
    const builder = new StreamsBuilder();
    const users = builder.table('users', strings);
    const clicks = builder.stream('clicks', strings);
    clicks.join(users, (c, u) => `${c}@${u}`).to('joined', toStrings);
    clicks.leftJoin(users, (c, u) => `${c}@${u ?? 'anonymous'}`).to('left-joined', toStrings);
    const d = await start(builder);
    const u = d.createInputTopic('users', str, str);
    const c = d.createInputTopic('clicks', str, str);
    await u.pipeInput('u1', 'alice', 1);
    await c.pipeInput('u1', 'c1', 2);
    await c.pipeInput('u2', 'c2', 3);
    await u.pipeInput('u1', 'bob', 4);
    await c.pipeInput('u1', 'c3', 5);
    await c.pipeInput('u1', null, 6);
    expect(read('joined')).toEqual([
      { key: 'u1', value: 'c1@alice', timestamp: 2 },
      { key: 'u1', value: 'c3@bob', timestamp: 5 },
    ]);
    expect(read('left-joined')).toEqual([
      { key: 'u1', value: 'c1@alice', timestamp: 2 },
      { key: 'u2', value: 'c2@anonymous', timestamp: 3 },
      { key: 'u1', value: 'c3@bob', timestamp: 5 },
    ]);
  });

  it('joins with unmaterialized filtered and mapped tables through their value getters', async () => {
    const builder = new StreamsBuilder();
    const users = builder
      .table('users', strings)
      .filter((_k, v) => v !== 'banned')
      .mapValues((v) => v.toUpperCase());
    builder
      .stream('clicks', strings)
      .leftJoin(users, (c, u) => `${c}@${u ?? '?'}`)
      .to('output', toStrings);
    const description = builder.build().describe();
    expect(description).toContain(
      'Processor: KSTREAM-LEFTJOIN-0000000006 (stores: [users-STATE-STORE-0000000000])',
    );
    const d = await start(builder);
    const u = d.createInputTopic('users', str, str);
    const c = d.createInputTopic('clicks', str, str);
    await u.pipeInput('u1', 'alice', 1);
    await u.pipeInput('u2', 'banned', 2);
    await c.pipeInput('u1', 'c1', 3);
    await c.pipeInput('u2', 'c2', 4);
    expect(read('output').map((r) => r.value)).toEqual(['c1@ALICE', 'c2@?']);
  });

  it('joins a key-changed stream with a table after repartitioning it', async () => {
    const builder = new StreamsBuilder();
    const users = builder.table('users', strings);
    builder
      .stream('orders', strings)
      .selectKey((_k, v) => v.split(':')[0])
      // The changed key needs a serde for the repartition topic (the default bytes serde
      // refuses a string, as Kafka Streams does).
      .join(users, (order, user) => `${order} by ${user}`, Joined.with(str, str, str))
      .to('output', toStrings);
    const d = await start(builder);
    await d.createInputTopic('users', str, str).pipeInput('u1', 'alice', 1);
    await d.createInputTopic('orders', str, str).pipeInput('o1', 'u1:book', 2);
    expect(read('output')).toEqual([{ key: 'u1', value: 'u1:book by alice', timestamp: 2 }]);
  });
});
