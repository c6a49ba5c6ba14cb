import { Serdes } from '../serde/serdes';
import type { KeyValueStore } from '../state/key-value-store';
import type { ValueAndTimestamp } from '../state/value-and-timestamp';
import { Consumed } from './consumed';
import { Joined } from './joined';
import { Materialized } from './materialized';
import { Produced } from './produced';
import { StreamsBuilder } from './streams-builder';
import { dslDriverPerTest } from '../../test-support/dsl-test-support';

const str = Serdes.String();
const strings = Consumed.with(str, str);
const toStrings = Produced.with(str, str);

describe('KTable operators through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  it('a source table upserts and deletes, and toStream emits every change', async () => {
    const builder = new StreamsBuilder();
    builder.table('users', strings, Materialized.as('users')).toStream().to('output', toStrings);
    const d = await dsl.start(builder);
    await dsl.pipeLines('users', [
      'u1=alice@1',
      'u2=bob@2',
      'u1=alicia@3',
      'u2=null@4',
      'null=nobody@5',
    ]);
    expect(dsl.lines('output')).toEqual(['u1=alice@1', 'u2=bob@2', 'u1=alicia@3', 'u2=null@4']);
    const store = d.getStateStore<KeyValueStore<string, ValueAndTimestamp<string>>>('users');
    expect(store.get('u1')).toEqual({ value: 'alicia', timestamp: 3 });
    expect(store.get('u2')).toBeUndefined();
  });

  it('an unnamed table nothing reads is not materialized: it emits every record at once', async () => {
    const builder = new StreamsBuilder();
    builder.table('users', strings).toStream().to('output', toStrings);
    const d = await dsl.start(builder, { commitEveryRecord: false });
    // As Kafka Streams' unmaterialized KTableSource: no store, so no cache to collapse updates.
    await dsl.pipeLines('users', ['u1=a@1', 'u1=b@2', 'u2=null@3']);
    expect(dsl.lines('output')).toEqual(['u1=a@1', 'u1=b@2', 'u2=null@3']);
    await d.commit();
    expect(dsl.lines('output')).toEqual([]);
  });

  it('a named table is materialized: its cache collapses updates until the commit', async () => {
    const builder = new StreamsBuilder();
    builder.table('users', strings, Materialized.as('users')).toStream().to('output', toStrings);
    const d = await dsl.start(builder, { commitEveryRecord: false });
    await dsl.pipeLines('users', ['u1=a@1', 'u1=b@2', 'u2=null@3']);
    expect(dsl.lines('output')).toEqual([]);
    await d.commit();
    expect(dsl.lines('output')).toEqual(['u1=b@2']);
  });

  it('a filter of a materialized table drops updates absent before and after, as Kafka Streams', async () => {
    const builder = new StreamsBuilder();
    builder
      .table('users', strings, Materialized.as('users'))
      .filter((_k, v) => v !== 'banned')
      .toStream()
      .to('output', toStrings);
    await dsl.start(builder);
    await dsl.pipeLines('users', ['u1=banned@1', 'u1=ok@2', 'u1=banned@3', 'u2=null@4']);
    expect(dsl.lines('output')).toEqual(['u1=ok@2', 'u1=null@3']);
  });

  it('filter turns rows that fail into deletes; a materialized filter is queryable', async () => {
    const builder = new StreamsBuilder();
    const active = builder
      .table('users', strings)
      .filter((_k, v) => v !== 'banned', undefined, Materialized.as('active'));
    expect(active.queryableStoreName).toBe('active');
    active.toStream().to('output', toStrings);
    const d = await dsl.start(builder);
    await dsl.pipeLines('users', ['u1=ok@1', 'u2=banned@2', 'u1=banned@3']);
    // u2 never passed: its delete reaches neither the filter's store nor downstream (the
    // store's cache drops a delete of a row the store never held, as Kafka Streams' does).
    expect(dsl.lines('output')).toEqual(['u1=ok@1', 'u1=null@3']);
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
    await dsl.start(builder);
    await dsl.pipeLines('users', ['u1=a@1', 'skip=b@2', 'u1=null@3']);
    expect(dsl.lines('output')).toEqual(['u1=u1:A@1', 'skip=null@2', 'u1=null@3']);
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
    const d = await dsl.start(builder);
    await dsl.pipeLines('left', ['a=l1@1']);
    await dsl.pipeLines('right', ['a=r1@2']);
    await dsl.pipeLines('left', ['a=l2@3']);
    await dsl.pipeLines('right', ['a=r0@0', 'a=null@4']);
    await dsl.pipeLines('left', ['b=x@5']);
    expect(dsl.lines('output')).toEqual(['a=l1+r1@2', 'a=l2+r1@3', 'a=l2+r0@3', 'a=null@4']);
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
    await dsl.start(builder);
    await dsl.pipeLines('left', ['a=l1@1']);
    await dsl.pipeLines('right', ['a=r1@2', 'a=null@3']);
    await dsl.pipeLines('left', ['a=null@4']);
    await dsl.pipeLines('right', ['b=r@5']);
    expect(dsl.lines('output')).toEqual(['a=l1+null@1', 'a=l1+r1@2', 'a=l1+null@3', 'a=null@4']);
  });

  it('stream-table join and left join look up the current row at the stream time', async () => {
    const builder = new StreamsBuilder();
    const users = builder.table('users', strings);
    const clicks = builder.stream('clicks', strings);
    clicks.join(users, (c, u) => `${c}@${u}`).to('joined', toStrings);
    clicks.leftJoin(users, (c, u) => `${c}@${u ?? 'anonymous'}`).to('left-joined', toStrings);
    await dsl.start(builder);
    await dsl.pipeLines('users', ['u1=alice@1']);
    await dsl.pipeLines('clicks', ['u1=c1@2', 'u2=c2@3']);
    await dsl.pipeLines('users', ['u1=bob@4']);
    await dsl.pipeLines('clicks', ['u1=c3@5', 'u1=null@6']);
    expect(dsl.lines('joined')).toEqual(['u1=c1@alice@2', 'u1=c3@bob@5']);
    expect(dsl.lines('left-joined')).toEqual(['u1=c1@alice@2', 'u2=c2@anonymous@3', 'u1=c3@bob@5']);
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
    await dsl.start(builder);
    await dsl.pipeLines('users', ['u1=alice@1', 'u2=banned@2']);
    await dsl.pipeLines('clicks', ['u1=c1@3', 'u2=c2@4']);
    expect(dsl.lines('output')).toEqual(['u1=c1@ALICE@3', 'u2=c2@?@4']);
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
    await dsl.start(builder);
    await dsl.pipeLines('users', ['u1=alice@1']);
    await dsl.pipeLines('orders', ['o1=u1:book@2']);
    expect(dsl.lines('output')).toEqual(['u1=u1:book by alice@2']);
  });
});
