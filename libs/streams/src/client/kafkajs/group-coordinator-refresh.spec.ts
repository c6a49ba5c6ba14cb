import { kafkajsProtocolError } from '../../../test-support/kafkajs-errors';
import { KafkaJSConnectionError } from 'kafkajs';
import {
  installCoordinatorRefresh,
  type CoordinatedConsumerGroup,
} from './group-coordinator-refresh';
import { kafkajsTransientFault } from './kafkajs-transient-faults';

/** A kafkajs `ConsumerGroup` whose coordinator moved from node 3 to node 1 (issue #38). */
class FakeGroup implements CoordinatedConsumerGroup {
  readonly groupId = 'g';
  coordinator: unknown = 'node 3';
  offsetManager = { coordinator: 'node 3' as unknown };
  readonly committedTo: unknown[] = [];
  readonly cluster = { findGroupCoordinator: async () => 'node 1' };

  async commitOffsets(): Promise<void> {
    this.committedTo.push(this.offsetManager.coordinator);
    // Code 16, NOT_COORDINATOR (kafkajs: NOT_COORDINATOR_FOR_GROUP), from the old coordinator.
    if (this.offsetManager.coordinator !== 'node 1') throw kafkajsProtocolError(16);
  }

  async heartbeat(): Promise<void> {
    // The old coordinator died: its connection is refused.
    if (this.coordinator !== 'node 1') throw new KafkaJSConnectionError('connect ECONNREFUSED');
  }
}

describe('installCoordinatorRefresh', () => {
  it('finds the coordinator again after NOT_COORDINATOR, so the next attempt reaches it', async () => {
    installCoordinatorRefresh(
      FakeGroup as unknown as { prototype: CoordinatedConsumerGroup },
      (error) => ['coordinator', 'connection'].includes(kafkajsTransientFault(error)?.kind ?? ''),
    );
    const group = new FakeGroup();
    // kafkajs' retrier sees the error (and sends the commit again)...
    await expect(group.commitOffsets()).rejects.toMatchObject({
      type: 'NOT_COORDINATOR_FOR_GROUP',
    });
    // ...to the new coordinator, where it used to resend it to the old one until its retries ran out.
    await group.commitOffsets();
    expect(group.committedTo).toEqual(['node 3', 'node 1']);
    expect(group.coordinator).toBe('node 1');
  });

  it('finds it again after a heartbeat to a dead coordinator', async () => {
    const group = new FakeGroup();
    await expect(group.heartbeat()).rejects.toBeInstanceOf(KafkaJSConnectionError);
    await group.heartbeat();
    expect(group.offsetManager.coordinator).toBe('node 1');
  });
});
