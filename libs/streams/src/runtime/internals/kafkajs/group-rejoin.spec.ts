import {
  cancelGroupRejoin,
  groupRejoinPending,
  installGroupRejoin,
  requestGroupRejoin,
  type HeartbeatingConsumerGroup,
} from './group-rejoin';
import { locateKafkajs } from './kafkajs-internals';

class FakeGroup implements HeartbeatingConsumerGroup {
  heartbeats = 0;
  constructor(
    readonly groupId: string,
    readonly memberId: string | null,
  ) {}
  async heartbeat(_options: { interval: number }): Promise<void> {
    this.heartbeats++;
  }
}

const rebalanceError = (message: string) =>
  Object.assign(new Error(message), { type: 'REBALANCE_IN_PROGRESS' });

describe('group rejoin (enforceRebalance for kafkajs)', () => {
  it('asks nothing until the heartbeat is patched', () => {
    expect(requestGroupRejoin('app', 'm-0')).toBe(false);
    expect(groupRejoinPending('app', 'm-0')).toBe(false);
  });

  it("fails the requested member's next heartbeat once, with a rebalance error, without asking the broker", async () => {
    installGroupRejoin(FakeGroup, rebalanceError);
    const member = new FakeGroup('app', 'm-1');
    const other = new FakeGroup('app', 'm-2');
    const otherGroup = new FakeGroup('other-app', 'm-1');

    expect(requestGroupRejoin('app', 'm-1')).toBe(true);
    await expect(member.heartbeat({ interval: 0 })).rejects.toMatchObject({
      type: 'REBALANCE_IN_PROGRESS',
      message: 'rejoining the group as the same member (probing rebalance)',
    });
    expect(member.heartbeats).toBe(0);
    await member.heartbeat({ interval: 0 });
    expect(member.heartbeats).toBe(1);
    await other.heartbeat({ interval: 0 });
    await otherGroup.heartbeat({ interval: 0 });
    expect([other.heartbeats, otherGroup.heartbeats]).toEqual([1, 1]);
  });

  it('patches once, and drops a cancelled request', async () => {
    installGroupRejoin(FakeGroup, rebalanceError);
    const patched = FakeGroup.prototype.heartbeat;
    installGroupRejoin(FakeGroup, rebalanceError);
    expect(FakeGroup.prototype.heartbeat).toBe(patched);
    const member = new FakeGroup('app', 'm-3');
    requestGroupRejoin('app', 'm-3');
    await expect(member.heartbeat({ interval: 0 })).rejects.toThrow('probing rebalance');
    await member.heartbeat({ interval: 0 });
    expect(member.heartbeats).toBe(1);

    requestGroupRejoin('app', 'm-3');
    cancelGroupRejoin('app', 'm-3');
    expect(groupRejoinPending('app', 'm-3')).toBe(false);
    await member.heartbeat({ interval: 0 });
    expect(member.heartbeats).toBe(2);
  });

  it("makes kafkajs' own consumer group fail with an error its runner answers by rejoining", async () => {
    const kafkajs = locateKafkajs();
    const groupClass = kafkajs.load<{ prototype: HeartbeatingConsumerGroup }>(
      './src/consumer/consumerGroup',
    );
    const errors = kafkajs.load<{
      KafkaJSProtocolError: new (e: object) => Error;
      isRebalancing(e: unknown): boolean;
      isKafkaJSError(e: unknown): boolean;
    }>('./src/errors');
    installGroupRejoin(
      groupClass,
      (message) =>
        new errors.KafkaJSProtocolError({
          type: 'REBALANCE_IN_PROGRESS',
          code: 27,
          retriable: false,
          message,
        }),
    );
    const group = Object.assign(Object.create(groupClass.prototype) as HeartbeatingConsumerGroup, {
      groupId: 'app',
      memberId: 'm-4',
    });
    requestGroupRejoin('app', 'm-4');
    const error = await group.heartbeat({ interval: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(errors.isRebalancing(error)).toBe(true);
    expect(errors.isKafkaJSError(error)).toBe(true);
  });
});
