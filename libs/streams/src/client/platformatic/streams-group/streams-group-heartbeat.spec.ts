import { Reader, Writer } from '@platformatic/kafka';
import {
  writeStreamsGroupHeartbeatRequest,
  type StreamsGroupHeartbeatRequest,
} from './streams-group-heartbeat-request';
import { readStreamsGroupHeartbeatResponse } from './streams-group-heartbeat-response';
import {
  unchangedHeartbeat,
  unchangedHeartbeatResponse,
} from '../../../../test-support/streams-group-heartbeat.fixture';

const bytes = (w: Writer) => Buffer.concat(w.buffers);

const NULLS: StreamsGroupHeartbeatRequest = {
  ...unchangedHeartbeat('g', 'm', 3),
  endpointInformationEpoch: 2,
};

describe('StreamsGroupHeartbeat v0 request', () => {
  it('writes a heartbeat with every nullable field null, byte for byte', () => {
    expect(bytes(writeStreamsGroupHeartbeatRequest(NULLS)).toString('hex')).toBe(
      [
        '0267', // GroupId 'g' (compact: length + 1)
        '026d', // MemberId 'm'
        '00000003', // MemberEpoch
        '00000002', // EndpointInformationEpoch
        '00', // InstanceId null
        '00', // RackId null
        'ffffffff', // RebalanceTimeoutMs -1
        'ff', // Topology null (nullable struct: INT8 -1)
        '00', // ActiveTasks null
        '00', // StandbyTasks null
        '00', // WarmupTasks null
        '00', // ProcessId null
        'ff', // UserEndpoint null
        '00', // ClientTags null
        '00', // TaskOffsets null
        '00', // TaskEndOffsets null
        '00', // ShutdownApplication false
        '00', // tagged fields
      ].join(''),
    );
  });

  it('writes a join with its topology, tasks, endpoint and offsets in the order of the definition', () => {
    const join: StreamsGroupHeartbeatRequest = {
      ...NULLS,
      memberEpoch: 0,
      endpointInformationEpoch: 0,
      instanceId: 'i-1',
      rebalanceTimeoutMs: 60_000,
      topology: {
        epoch: 1,
        subtopologies: [
          {
            subtopologyId: '0',
            sourceTopics: ['in', 'app-rep'],
            sourceTopicRegex: [],
            stateChangelogTopics: [
              {
                name: 'app-s-changelog',
                partitions: 0,
                replicationFactor: 0,
                topicConfigs: [{ key: 'cleanup.policy', value: 'compact' }],
              },
            ],
            repartitionSinkTopics: ['app-out'],
            repartitionSourceTopics: [
              { name: 'app-rep', partitions: 4, replicationFactor: 1, topicConfigs: [] },
            ],
            copartitionGroups: [
              { sourceTopics: [0], sourceTopicRegex: [], repartitionSourceTopics: [0] },
            ],
          },
        ],
      },
      activeTasks: [{ subtopologyId: '0', partitions: [1, 3] }],
      standbyTasks: [],
      warmupTasks: [],
      processId: 'p-1',
      userEndpoint: { host: 'h', port: 65_000 },
      clientTags: [{ key: 'k', value: 'v' }],
      taskOffsets: [{ subtopologyId: '0', partition: 1, offset: 2 ** 40 }],
      taskEndOffsets: [],
      shutdownApplication: true,
    };
    const r = Reader.from(bytes(writeStreamsGroupHeartbeatRequest(join)));
    const str = () => r.readString(true);
    const tags = () => expect(r.readUnsignedVarInt()).toBe(0);
    expect([str(), str(), r.readInt32(), r.readInt32()]).toEqual(['g', 'm', 0, 0]);
    expect([r.readNullableString(true), r.readNullableString(true)]).toEqual(['i-1', null]);
    expect(r.readInt32()).toBe(60_000);
    expect(r.readInt8()).toBe(1); // Topology present
    expect(r.readInt32()).toBe(1);
    expect(r.readUnsignedVarInt()).toBe(2); // one sub-topology
    expect(str()).toBe('0');
    expect(r.readArray((e) => e.readString(true), true, false)).toEqual(['in', 'app-rep']);
    expect(r.readUnsignedVarInt()).toBe(1); // no regex
    expect(r.readUnsignedVarInt()).toBe(2); // one changelog
    expect([str(), r.readInt32(), r.readInt16()]).toEqual(['app-s-changelog', 0, 0]);
    expect(r.readUnsignedVarInt()).toBe(2);
    expect([str(), str()]).toEqual(['cleanup.policy', 'compact']);
    tags(); // KeyValue
    tags(); // TopicInfo
    expect(r.readArray((e) => e.readString(true), true, false)).toEqual(['app-out']);
    expect(r.readUnsignedVarInt()).toBe(2);
    expect([str(), r.readInt32(), r.readInt16(), r.readUnsignedVarInt()]).toEqual([
      'app-rep',
      4,
      1,
      1,
    ]);
    tags(); // TopicInfo
    expect(r.readUnsignedVarInt()).toBe(2); // one co-partition group
    expect(r.readArray((e) => e.readInt16(), true, false)).toEqual([0]);
    expect(r.readArray((e) => e.readInt16(), true, false)).toEqual([]);
    expect(r.readArray((e) => e.readInt16(), true, false)).toEqual([0]);
    tags(); // CopartitionGroup
    tags(); // Subtopology
    tags(); // Topology
    expect(r.readUnsignedVarInt()).toBe(2); // ActiveTasks
    expect([str(), r.readArray((e) => e.readInt32(), true, false)]).toEqual(['0', [1, 3]]);
    tags();
    expect([r.readUnsignedVarInt(), r.readUnsignedVarInt()]).toEqual([1, 1]); // empty, not null
    expect(str()).toBe('p-1');
    expect(r.readInt8()).toBe(1);
    expect([str(), r.readUnsignedInt16()]).toEqual(['h', 65_000]);
    tags(); // Endpoint
    expect(r.readUnsignedVarInt()).toBe(2);
    expect([str(), str()]).toEqual(['k', 'v']);
    tags();
    expect(r.readUnsignedVarInt()).toBe(2);
    expect([str(), r.readInt32(), r.readInt64()]).toEqual(['0', 1, 2n ** 40n]);
    tags();
    expect(r.readUnsignedVarInt()).toBe(1); // TaskEndOffsets empty
    expect(r.readBoolean()).toBe(true);
    tags();
    expect(r.remaining).toBe(0);
  });
});

describe('StreamsGroupHeartbeat v0 response', () => {
  it('reads a response with nulls (unchanged) and an error code without throwing', () => {
    const body = Buffer.from(
      [
        '00000000', // ThrottleTimeMs
        '006e', // ErrorCode 110 FENCED_MEMBER_EPOCH
        '0578797a21', // ErrorMessage 'xyz!' (compact: 4 + 1)
        '026d', // MemberId 'm'
        '00000007', // MemberEpoch
        '00001388', // HeartbeatIntervalMs 5000
        '00002710', // AcceptableRecoveryLag 10000
        '0000ea60', // TaskOffsetIntervalMs 60000
        '00', // Status null
        '000000', // Active, Standby, Warmup null
        '00000004', // EndpointInformationEpoch
        '00', // PartitionsByUserEndpoint null
        '00', // tagged fields
      ].join(''),
      'hex',
    );
    const r = Reader.from(body);
    expect(readStreamsGroupHeartbeatResponse(r)).toEqual({
      ...unchangedHeartbeatResponse(7),
      errorCode: 110,
      errorMessage: 'xyz!',
      heartbeatIntervalMs: 5000,
      endpointInformationEpoch: 4,
    });
    expect(r.remaining).toBe(0);
  });

  it('reads statuses, tasks and the routing map', () => {
    const w = Writer.create()
      .appendInt32(5)
      .appendInt16(0)
      .appendString(null)
      .appendString('member-1')
      .appendInt32(2)
      .appendInt32(1000)
      .appendInt32(500)
      .appendInt32(30_000);
    w.appendArray(
      [
        [1, 'Source topics in are missing.'],
        [4, 'shutdown'],
      ] as const,
      (e, [code, detail]) => e.appendInt8(code).appendString(detail),
    );
    const taskIds = (sub: string, ps: number[]) => (e: Writer) =>
      e.appendString(sub).appendArray(ps, (x, p) => x.appendInt32(p), true, false);
    w.appendArray([0], (e) => taskIds('0', [0, 2])(e));
    w.appendArray([0], (e) => taskIds('1', [1])(e));
    w.appendArray([], () => undefined);
    w.appendInt32(3);
    w.appendArray([0], (e) => {
      e.appendString('10.0.0.1').appendUnsignedInt16(8080).appendTaggedFields();
      e.appendArray(['in', 'app-s-changelog'], (x, t) =>
        x.appendString(t).appendArray([0, 2], (y, p) => y.appendInt32(p), true, false),
      );
      e.appendArray(['in'], (x, t) =>
        x.appendString(t).appendArray([1], (y, p) => y.appendInt32(p), true, false),
      );
    });
    w.appendTaggedFields();
    const r = Reader.from(bytes(w));
    expect(readStreamsGroupHeartbeatResponse(r)).toEqual({
      throttleTimeMs: 5,
      errorCode: 0,
      errorMessage: null,
      memberId: 'member-1',
      memberEpoch: 2,
      heartbeatIntervalMs: 1000,
      acceptableRecoveryLag: 500,
      taskOffsetIntervalMs: 30_000,
      status: [
        { statusCode: 1, statusDetail: 'Source topics in are missing.' },
        { statusCode: 4, statusDetail: 'shutdown' },
      ],
      activeTasks: [{ subtopologyId: '0', partitions: [0, 2] }],
      standbyTasks: [{ subtopologyId: '1', partitions: [1] }],
      warmupTasks: [],
      endpointInformationEpoch: 3,
      partitionsByUserEndpoint: [
        {
          userEndpoint: { host: '10.0.0.1', port: 8080 },
          activePartitions: [
            { topic: 'in', partitions: [0, 2] },
            { topic: 'app-s-changelog', partitions: [0, 2] },
          ],
          standbyPartitions: [{ topic: 'in', partitions: [1] }],
        },
      ],
    });
    expect(r.remaining).toBe(0);
  });
});
