import { TopologyError } from '../../../errors/topology.error';
import { Serdes } from '../../../serde/serdes';
import { Stores } from '../../../state/stores';
import { Consumed } from '../../consumed';
import { Produced } from '../../produced';
import { StreamJoined } from '../../stream-joined';
import { StreamsBuilder } from '../../streams-builder';
import { JoinWindows } from '../../windows/join-windows';
import { dslDriverPerTest, type SideRecord } from '../../../../test-support/dsl-test-support';
import type { StreamJoinKind } from './stream-stream-join';

const str = Serdes.String();

/** One input record: side, key, value, timestamp. */
type Input = SideRecord<'L' | 'R'>;

/** The input topic of each side. */
const SIDES = { L: 'left', R: 'right' } as const;

/**
 * Expected records are Kafka Streams 4.4's TopologyTestDriver's on the same input, window
 * 10 ms with 5 ms grace, after each input record.
 */
const INPUT: readonly Input[] = [
  ['L', 'k1', 'a', 100],
  ['R', 'k1', 'x', 105],
  ['L', 'k2', 'b', 106],
  ['R', 'k3', 'y', 108],
  ['L', 'k1', 'c', 112],
  ['R', 'k1', 'z', 90],
  ['L', 'k2', 'd', 130],
  ['R', 'k4', 'w', 131],
  ['L', 'k5', 'e', 90],
  ['R', 'k2', 'v', 131],
  ['L', 'k6', 'f', 200],
];

const EXPECTED: Record<StreamJoinKind, string[][]> = {
  inner: [
    [],
    ['k1=a+x@105'],
    [],
    [],
    ['k1=c+x@112'],
    ['k1=a+z@100'],
    [],
    [],
    [],
    ['k2=d+v@131'],
    [],
  ],
  left: [
    [],
    ['k1=a+x@105'],
    [],
    [],
    ['k1=c+x@112'],
    ['k1=a+z@100'],
    ['k2=b+null@106'],
    [],
    ['k5=e+null@90'],
    ['k2=d+v@131'],
    [],
  ],
  outer: [
    [],
    ['k1=a+x@105'],
    [],
    [],
    ['k1=c+x@112'],
    ['k1=a+z@100'],
    ['k2=b+null@106', 'k3=null+y@108'],
    [],
    ['k5=e+null@90'],
    ['k2=d+v@131'],
    ['k4=null+w@131'],
  ],
};

describe('stream-stream joins through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  function joining(
    kind: StreamJoinKind,
    streamJoined?: StreamJoined<string, string, string>,
  ): StreamsBuilder {
    const builder = new StreamsBuilder();
    const left = builder.stream('left', Consumed.with(str, str));
    const right = builder.stream('right', Consumed.with(str, str));
    const windows = JoinWindows.ofTimeDifferenceAndGrace(10, 5);
    const joiner = (l: string | null, r: string | null): string => `${l}+${r}`;
    const joined =
      kind === 'inner'
        ? left.join(right, joiner, windows, streamJoined)
        : kind === 'left'
          ? left.leftJoin(right, joiner, windows, streamJoined)
          : left.outerJoin(right, joiner, windows, streamJoined);
    joined.to('out', Produced.with(str, str));
    return builder;
  }

  it.each(['inner', 'left', 'outer'] as const)(
    'emits what Kafka Streams emits, record by record (%s join)',
    async (kind) => {
      await dsl.start(joining(kind, StreamJoined.with(str, str, str)));
      expect(await dsl.linesPerSideRecord(SIDES, INPUT)).toEqual(EXPECTED[kind]);
    },
  );

  it('scans the waiting records record by record: two of one key and time count as two', async () => {
    await dsl.start(joining('outer', StreamJoined.with(str, str, str)));
    const input: Input[] = [
      ['L', 'k1', 'a', 100],
      ['L', 'k2', 'b', 104],
      ['R', 'k3', 'c1', 106],
      ['R', 'k3', 'c2', 106],
      ['L', 'k4', 'd', 110],
      // Scans: a@100 closed, b@104 open (left), c1@106 open (right); c2@106 ends the scan, so
      // the next one is due 15 ms after 106 (not after d@110, the next key).
      ['R', 'k5', 'e', 116],
      ['L', 'k6', 'f', 122],
    ];
    expect(await dsl.linesPerSideRecord(SIDES, input)).toEqual([
      [],
      [],
      [],
      [],
      [],
      ['k1=a+null@100'],
      ['k2=b+null@104', 'k3=null+c1@106', 'k3=null+c2@106'],
    ]);
  });

  it("joins with the key in the joiner and the streams' serdes when StreamJoined has none", async () => {
    const builder = new StreamsBuilder();
    const left = builder.stream('left', Consumed.with(str, Serdes.Long()));
    const right = builder.stream('right', Consumed.with(str, str));
    left
      .join(right, (l, r, key) => `${key}:${l}/${r}`, JoinWindows.ofTimeDifferenceWithNoGrace(5))
      .to('out', Produced.with(str, str));
    const driver = await dsl.start(builder);
    await driver.createInputTopic('left', str, Serdes.Long()).pipeInput('k', 7, 10);
    await driver.createInputTopic('right', str, str).pipeInput('k', 'r', 12);
    expect(dsl.lines('out')).toEqual(['k=k:7/r@12']);
  });

  it('names processors, stores and changelogs as Kafka Streams does', async () => {
    const driver = await dsl.start(joining('outer', StreamJoined.with(str, str, str)));
    await dsl.pipeLines('left', ['k=a@1']);
    await dsl.pipeLines('right', ['k=b@2']);
    const description = joining('outer').build().describe();
    for (const line of [
      '    Processor: KSTREAM-WINDOWED-0000000002 (stores: [KSTREAM-OUTERTHIS-0000000004-store])',
      '    Processor: KSTREAM-WINDOWED-0000000003 (stores: [KSTREAM-OUTEROTHER-0000000005-store])',
      '    Processor: KSTREAM-OUTERTHIS-0000000004 (stores: [KSTREAM-OUTEROTHER-0000000005-store, KSTREAM-OUTERSHARED-0000000004-store])',
      '    Processor: KSTREAM-OUTEROTHER-0000000005 (stores: [KSTREAM-OUTERTHIS-0000000004-store, KSTREAM-OUTERSHARED-0000000004-store])',
      '      <-- KSTREAM-OUTERTHIS-0000000004, KSTREAM-OUTEROTHER-0000000005',
      '    Sink: KSTREAM-SINK-0000000007 (topic: out)',
    ]) {
      expect(description).toContain(line);
    }
    const changelogs = [
      'topology-test-driver-KSTREAM-OUTERTHIS-0000000004-store-changelog',
      'topology-test-driver-KSTREAM-OUTEROTHER-0000000005-store-changelog',
      'topology-test-driver-KSTREAM-OUTERSHARED-0000000004-store-changelog',
    ];
    expect(changelogs.map((t) => driver.producedRecords(t).length)).toEqual([1, 1, 2]);
    expect(joining('inner').build().describe()).toContain(
      '    Processor: KSTREAM-JOINTHIS-0000000004 (stores: [KSTREAM-JOINOTHER-0000000005-store])',
    );
    expect(joining('left').build().describe()).toContain(
      '    Processor: KSTREAM-JOINTHIS-0000000004 (stores: [KSTREAM-OUTEROTHER-0000000005-store, KSTREAM-OUTERSHARED-0000000004-store])',
    );
  });

  it('names everything after StreamJoined.withName and withStoreName', () => {
    const description = joining(
      'left',
      StreamJoined.with(str, str, str).withName('pay').withStoreName('orders'),
    )
      .build()
      .describe();
    for (const line of [
      '    Processor: pay-this-windowed (stores: [orders-this-join-store])',
      '    Processor: pay-other-windowed (stores: [orders-outer-other-join-store])',
      '    Processor: pay-this-join (stores: [orders-outer-other-join-store, orders-left-shared-join-store])',
      '    Processor: pay-outer-other-join (stores: [orders-this-join-store, orders-left-shared-join-store])',
      '      <-- pay-this-join, pay-outer-other-join',
    ]) {
      expect(description).toContain(line);
    }
  });

  it('repartitions a side whose key changed, through <name>-left-repartition', () => {
    const builder = new StreamsBuilder();
    const left = builder.stream('left', Consumed.with(str, str)).selectKey((_k, v) => v);
    const right = builder.stream('right', Consumed.with(str, str));
    left
      .join(
        right,
        (l, r) => `${l}${r}`,
        JoinWindows.ofTimeDifferenceWithNoGrace(10),
        StreamJoined.with(str, str, str).withName('j'),
      )
      .to('out');
    const topology = builder.build();
    expect([...topology.internalTopicDefs().keys()]).toEqual(['j-left-repartition']);
    expect(topology.copartitionGroups()).toEqual([['j-left-repartition', 'right']]);
  });

  it('refuses store suppliers that do not retain duplicates or do not fit the window', () => {
    const windows = JoinWindows.ofTimeDifferenceAndGrace(10, 5);
    const builder = new StreamsBuilder();
    const left = builder.stream('left', Consumed.with(str, str));
    const right = builder.stream('right', Consumed.with(str, str));
    const joinWith = (a: number, b: number, dup: boolean) => () =>
      left.join(
        right,
        (l, r) => `${l}${r}`,
        windows,
        StreamJoined.withStoreSuppliers(
          Stores.inMemoryWindowStore(`this-${a}-${dup}`, a, b, dup),
          Stores.inMemoryWindowStore(`other-${a}-${dup}`, a, b, dup),
        ),
      );
    expect(joinWith(25, 20, false)).toThrow(
      new TopologyError(
        "the store supplier 'this-25-false' of a stream-stream join must retain duplicates: build it with retainDuplicates true",
      ),
    );
    expect(joinWith(30, 20, true)).toThrow(
      new TopologyError(
        "the store supplier 'this-30-true' (window size 20 ms, retention 30 ms) must match the join window (size 20 ms, retention 25 ms = size plus grace)",
      ),
    );
    expect(joinWith(25, 20, true)).not.toThrow();
  });
});
