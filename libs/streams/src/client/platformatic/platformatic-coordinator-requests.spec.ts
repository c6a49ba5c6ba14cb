import {
  kGetApi,
  kGetBootstrapConnection,
  kGetConnection,
  NetworkError,
  protocolErrors,
  ResponseError,
  type Consumer,
  type Producer,
} from '@platformatic/kafka';
import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import { PlatformaticCoordinators } from './platformatic-coordinators';
import { sendOffsetCommit } from './platformatic-group-offsets';
import { PlatformaticTransactionOffsets } from './platformatic-transaction-offsets';
import { StreamsGroupCoordinator } from './streams-group/streams-group-coordinator';
import { unchangedHeartbeat } from '../../../test-support/streams-group-heartbeat.fixture';
import { platformaticTransientFault } from './platformatic-transient-faults';
import { virtualClockPerTest } from '../../../test-support/virtual-clock';

/** API keys of the requests the fake cluster answers. */
const OFFSET_COMMIT = 8;
const FIND_COORDINATOR = 10;
const ADD_OFFSETS_TO_TXN = 25;
const TXN_OFFSET_COMMIT = 28;
const STREAMS_GROUP_HEARTBEAT = 88;

/**
 * A platformatic client's parts the coordinator requests use, over a fake three-node cluster:
 * FindCoordinator names the nodes of `coordinators` in turn (the last one from then on); a node
 * in `dead` refuses connections; each API answers the Kafka errors queued in `answers` first,
 * then success.
 */
class FakeCluster {
  coordinators = [1];
  readonly dead = new Set<number>();
  readonly answers = new Map<number, string[]>();
  /** `<api key>@<node>` of every request, in order. */
  readonly requests: string[] = [];
  readonly closed = false;
  readonly producerId = 7n;
  readonly producerEpoch = 0;

  listApis = async () =>
    [ADD_OFFSETS_TO_TXN, TXN_OFFSET_COMMIT].map((apiKey) => ({
      apiKey,
      minVersion: 0,
      maxVersion: 4,
    }));

  [kGetBootstrapConnection](callback: (e: Error | null, c?: unknown) => void): void {
    callback(null, this.connection(0));
  }

  [kGetConnection](broker: { nodeId: number }, callback: (e: Error | null, c?: unknown) => void) {
    if (this.dead.has(broker.nodeId)) {
      callback(new NetworkError(`Connection to node ${broker.nodeId} failed.`));
      return;
    }
    callback(null, this.connection(broker.nodeId));
  }

  [kGetApi](name: string, callback: (e: Error | null, api?: unknown) => void): void {
    const key = name === 'FindCoordinator' ? FIND_COORDINATOR : OFFSET_COMMIT;
    callback(null, (connection: ReturnType<FakeCluster['connection']>, ...args: unknown[]) => {
      const done = args.pop() as (e: Error | null, r?: unknown) => void;
      connection.send(key, 4, () => undefined, undefined, true, true, done);
    });
  }

  private connection(node: number) {
    return {
      send: (
        key: number,
        version: number,
        _payload: unknown,
        _parse: unknown,
        _requestTags: boolean,
        _responseTags: boolean,
        callback: (error: Error | null, response?: unknown) => void,
      ) => {
        this.requests.push(`${key}@${node}`);
        if (key === FIND_COORDINATOR) {
          const nodeId =
            this.coordinators.length > 1 ? this.coordinators.shift()! : this.coordinators[0];
          const coordinator = { key: 'g', nodeId, host: 'h', port: 1 };
          callback(null, { coordinators: [coordinator] });
          return;
        }
        const failure = this.answers.get(key)?.shift();
        if (failure === undefined) callback(null, {});
        else
          callback(
            new ResponseError(key, version, { '': [protocolErrors[failure].code, null] }, {}),
          );
      },
    };
  }
}

describe('the coordinator requests of the platformatic adapters', () => {
  let cluster: FakeCluster;
  const { retry } = virtualClockPerTest(platformaticTransientFault);

  beforeEach(() => {
    cluster = new FakeCluster();
  });

  const commit = () =>
    sendOffsetCommit(
      {
        member: cluster as unknown as Consumer,
        coordinators: new PlatformaticCoordinators(cluster as never),
        retry,
      },
      'g',
      { generationId: 3, memberId: 'm' },
      null,
      [{ topic: 't', partition: 0, offset: 5 }],
    );

  it('OffsetCommit: finds the new coordinator when the old one died or moved (issue #38, B)', async () => {
    // The coordinator died; FindCoordinator still names it once, then node 2, loading the group.
    cluster.dead.add(1);
    cluster.coordinators = [1, 2];
    cluster.answers.set(OFFSET_COMMIT, ['COORDINATOR_LOAD_IN_PROGRESS', 'NOT_COORDINATOR']);
    await commit();
    expect(cluster.requests).toEqual([
      '10@0', // FindCoordinator: node 1, which refuses the connection
      '10@0', // again: node 2
      '8@2', // COORDINATOR_LOAD_IN_PROGRESS
      '10@0',
      '8@2', // NOT_COORDINATOR
      '10@0',
      '8@2', // committed
    ]);
  });

  it('OffsetCommit: gives up with ClusterFaultTimeoutError after default.api.timeout.ms', async () => {
    cluster.dead.add(1);
    const error = await commit().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterFaultTimeoutError);
    expect((error as ClusterFaultTimeoutError).bound).toBe('default.api.timeout.ms');
  });

  it('OffsetCommit: a group that moved on is no fault to retry', async () => {
    cluster.answers.set(OFFSET_COMMIT, ['ILLEGAL_GENERATION']);
    await expect(commit()).rejects.toBeInstanceOf(ResponseError);
    expect(cluster.requests).toEqual(['10@0', '8@1']);
  });

  it("transaction offsets: AddOffsetsToTxn's and TxnOffsetCommit's coordinators found again (issue #38, F, G)", async () => {
    const offsets = new PlatformaticTransactionOffsets(
      cluster as unknown as Producer,
      'app-1',
      retry,
    );
    // F: the transaction coordinator answers with errors after a broker froze and came back.
    cluster.answers.set(ADD_OFFSETS_TO_TXN, ['NOT_COORDINATOR', 'CONCURRENT_TRANSACTIONS']);
    // G: the group coordinator died after its first answer; node 3 takes over.
    cluster.answers.set(TXN_OFFSET_COMMIT, ['COORDINATOR_NOT_AVAILABLE']);
    const sending = offsets.send([{ topic: 't', partition: 0, offset: 5 }], {
      groupId: 'g',
      generationId: 3,
      memberId: 'm',
      groupInstanceId: null,
    });
    await sending;
    expect(cluster.requests).toEqual([
      '10@0', // FindCoordinator (transaction)
      '25@1', // NOT_COORDINATOR: found again
      '10@0',
      '25@1', // CONCURRENT_TRANSACTIONS: the same coordinator, after a pause
      '25@1',
      '10@0', // FindCoordinator (group)
      '28@1', // COORDINATOR_NOT_AVAILABLE: found again
      '10@0',
      '28@1',
    ]);
    // The group coordinator died: not in any metadata, its successor found.
    cluster.dead.add(1);
    cluster.coordinators = [3];
    await offsets.send([{ topic: 't', partition: 0, offset: 6 }], {
      groupId: 'g',
      generationId: 3,
      memberId: 'm',
      groupInstanceId: null,
    });
    expect(cluster.requests.slice(9)).toEqual(['10@0', '25@3', '10@0', '28@3']);
  });

  it('streams group heartbeat: a coordinator that refuses the connection is found again (issue #38)', async () => {
    // The group coordinator died; FindCoordinator still names it once, then node 2.
    cluster.dead.add(1);
    cluster.coordinators = [1, 2];
    const coordinator = new StreamsGroupCoordinator(cluster as never, 'g');
    const heartbeat = () => coordinator.heartbeat(unchangedHeartbeat('g', 'm', 3));
    await expect(heartbeat()).rejects.toThrow('Connection to node 1 failed.');
    expect(coordinator.coordinatorId).toBeUndefined();
    await heartbeat();
    expect(coordinator.coordinatorId).toBe(2);
    expect(cluster.requests).toEqual(['10@0', '10@0', `${STREAMS_GROUP_HEARTBEAT}@2`]);
  });
});
