import { Reader, Writer } from '@platformatic/kafka';
import {
  readStreamsGroupDescribeResponse,
  writeStreamsGroupDescribeRequest,
} from './streams-group-describe';

const bytes = (w: Writer) => Buffer.concat(w.buffers);
const strings = (w: Writer, values: string[]) =>
  w.appendArray(values, (e, v) => e.appendString(v), true, false);
const int32s = (w: Writer, values: number[]) =>
  w.appendArray(values, (e, v) => e.appendInt32(v), true, false);

describe('StreamsGroupDescribe v0', () => {
  it('writes the request byte for byte', () => {
    expect(bytes(writeStreamsGroupDescribeRequest(['ab', 'c'], true)).toString('hex')).toBe(
      '03' + '036162' + '0263' + '01' + '00',
    );
  });

  it('reads a described group with its topology and a member', () => {
    const w = Writer.create().appendInt32(0);
    w.appendArray([0], (g) => {
      g.appendInt16(0).appendString(null).appendString('app').appendString('stable');
      g.appendInt32(4).appendInt32(4);
      g.appendInt8(1).appendInt32(1); // Topology
      g.appendArray([0], (s) => {
        s.appendString('0');
        strings(s, ['in']);
        strings(s, []);
        s.appendArray([0], (t) => {
          t.appendString('app-s-changelog').appendInt32(2).appendInt16(1);
          t.appendArray([0], (kv) => kv.appendString('cleanup.policy').appendString('compact'));
        });
        s.appendArray([], () => undefined);
      });
      g.appendTaggedFields(); // Topology's
      g.appendArray([0], (m) => {
        m.appendString('m-1').appendInt32(4).appendString(null).appendString(null);
        m.appendString('client').appendString('/127.0.0.1').appendInt32(1).appendString('p-1');
        m.appendInt8(1).appendString('h').appendUnsignedInt16(9000).appendTaggedFields();
        m.appendArray([0], (kv) => kv.appendString('query').appendString('h:19000'));
        m.appendArray([0], (o) => o.appendString('0').appendInt32(1).appendInt64(12n));
        m.appendArray([], () => undefined);
        for (const active of [[0, 1], [1]]) {
          m.appendArray([0], (t) => {
            t.appendString('0');
            int32s(t, active);
          });
          m.appendArray([], () => undefined).appendArray([], () => undefined);
          m.appendTaggedFields();
        }
        m.appendBoolean(false);
      });
      g.appendInt32(-2147483648);
    });
    w.appendTaggedFields();
    const r = Reader.from(bytes(w));
    expect(readStreamsGroupDescribeResponse(r)).toEqual({
      throttleTimeMs: 0,
      groups: [
        {
          errorCode: 0,
          errorMessage: null,
          groupId: 'app',
          groupState: 'stable',
          groupEpoch: 4,
          assignmentEpoch: 4,
          topology: {
            epoch: 1,
            subtopologies: [
              {
                subtopologyId: '0',
                sourceTopics: ['in'],
                repartitionSinkTopics: [],
                stateChangelogTopics: [
                  {
                    name: 'app-s-changelog',
                    partitions: 2,
                    replicationFactor: 1,
                    topicConfigs: [{ key: 'cleanup.policy', value: 'compact' }],
                  },
                ],
                repartitionSourceTopics: [],
              },
            ],
          },
          members: [
            {
              memberId: 'm-1',
              memberEpoch: 4,
              instanceId: null,
              rackId: null,
              clientId: 'client',
              clientHost: '/127.0.0.1',
              topologyEpoch: 1,
              processId: 'p-1',
              userEndpoint: { host: 'h', port: 9000 },
              clientTags: [{ key: 'query', value: 'h:19000' }],
              taskOffsets: [{ subtopologyId: '0', partition: 1, offset: 12 }],
              taskEndOffsets: [],
              assignment: {
                activeTasks: [{ subtopologyId: '0', partitions: [0, 1] }],
                standbyTasks: [],
                warmupTasks: [],
              },
              targetAssignment: {
                activeTasks: [{ subtopologyId: '0', partitions: [1] }],
                standbyTasks: [],
                warmupTasks: [],
              },
              isClassic: false,
            },
          ],
          authorizedOperations: -2147483648,
        },
      ],
    });
    expect(r.remaining).toBe(0);
  });
});
