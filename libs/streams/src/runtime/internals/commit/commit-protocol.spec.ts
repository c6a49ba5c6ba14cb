import { CommitFailedError } from '../../../errors/internals/commit-failed.error';
import type { KafkaRecordCollector } from '../../../processor/internals/kafka-record-collector';
import type { ActiveTaskEntry } from '../active-tasks/active-task-entry';
import { EosProducer } from './eos-producer';
import type { GroupMetadata } from '../../../client/group-consumer';
import type {
  ConsumerGroupMetadata,
  OffsetToCommit,
  RecordProducer,
} from '../../../client/record-producer';
import { commitInThreadTransaction } from './commit-protocol';

/** A transactional producer recording the calls the engine makes. */
class RecordingProducer implements RecordProducer {
  readonly calls: string[] = [];
  readonly offsets: { offsets: OffsetToCommit[]; group: ConsumerGroupMetadata }[] = [];
  readonly transactionalId = 'app-p1-1';
  readonly supportsGroupMetadata = true;
  refuseOffsets: Error | undefined;
  async connect(): Promise<void> {}
  async send(): Promise<never[]> {
    this.calls.push('send');
    return [];
  }
  async beginTransaction(): Promise<void> {
    this.calls.push('begin');
  }
  async sendOffsetsToTransaction(
    offsets: readonly OffsetToCommit[],
    group: ConsumerGroupMetadata,
  ): Promise<void> {
    if (this.refuseOffsets) throw this.refuseOffsets;
    this.calls.push('offsets');
    this.offsets.push({ offsets: [...offsets], group });
  }
  async commitTransaction(): Promise<void> {
    this.calls.push('commit');
  }
  async abortTransaction(): Promise<void> {
    this.calls.push('abort');
  }
  async disconnect(): Promise<void> {}
}

/** A task entry with what the commit reads and records what it does. */
function entry(
  id: string,
  toCommit: OffsetToCommit[],
  positions: OffsetToCommit[],
  events: string[],
): ActiveTaskEntry {
  const task = {
    id: { toString: () => id },
    offsetsToCommit: () => toCommit,
    inputPositions: () => positions,
    markCommitted: () => events.push(`${id}:marked`),
  };
  return {
    task,
    stateManager: {
      recordCommitted: () => events.push(`${id}:recorded`),
      checkpointIfNeeded: () => events.push(`${id}:checkpoint`),
    },
    engines: { commit: async () => void events.push(`${id}:engines`) },
    collector: {},
    partitions: [],
    restored: true,
  } as unknown as ActiveTaskEntry;
}

const member: GroupMetadata = {
  groupId: 'app',
  memberId: 'm-1',
  generationId: 7,
  groupInstanceId: null,
};

describe('commitInThreadTransaction (exactly-once with KIP-447: one transaction per thread)', () => {
  const setup = () => {
    const producer = new RecordingProducer();
    const eos = new EosProducer(producer);
    const events: string[] = [];
    const collector = {
      flush: async () => void events.push('flushed'),
    } as unknown as KafkaRecordCollector;
    return {
      producer,
      eos,
      events,
      transaction: { producer: eos, collector, applicationId: 'app' },
    };
  };

  it("commits every due task's offsets in one transaction, with the member's generation", async () => {
    const { producer, eos, events, transaction } = setup();
    await eos.send([]);
    const a = entry('0_0', [{ topic: 'in', partition: 0, offset: 5 }], [], events);
    const b = entry('0_1', [{ topic: 'in', partition: 1, offset: 9 }], [], events);
    const idle = entry('0_2', [], [{ topic: 'in', partition: 2, offset: 3 }], events);
    await commitInThreadTransaction(transaction, [a, b], [a, b, idle], {
      groupMetadata: () => member,
    });
    expect(producer.calls).toEqual(['begin', 'send', 'offsets', 'commit']);
    expect(producer.offsets).toEqual([
      {
        offsets: [
          { topic: 'in', partition: 0, offset: 5 },
          { topic: 'in', partition: 1, offset: 9 },
        ],
        group: member,
      },
    ]);
    // Every restored task's store writes after the commit; only the due ones are marked.
    expect(events).toEqual([
      'flushed',
      '0_0:engines',
      '0_0:recorded',
      '0_1:engines',
      '0_1:recorded',
      '0_2:engines',
      '0_2:recorded',
      '0_0:marked',
      '0_0:checkpoint',
      '0_1:marked',
      '0_1:checkpoint',
    ]);
    expect(eos.inTransaction).toBe(false);
  });

  it("sends the tasks' positions again when the transaction has records but no new offsets", async () => {
    const { producer, eos, events, transaction } = setup();
    await eos.send([]); // e.g. output of a wall-clock punctuation
    const a = entry('0_0', [], [{ topic: 'in', partition: 0, offset: 5 }], events);
    const b = entry('0_1', [], [{ topic: 'in', partition: 1, offset: 2 }], events);
    await commitInThreadTransaction(transaction, [a], [a, b], { groupMetadata: () => member });
    expect(producer.offsets.map((o) => o.offsets)).toEqual([
      [
        { topic: 'in', partition: 0, offset: 5 },
        { topic: 'in', partition: 1, offset: 2 },
      ],
    ]);
    expect(producer.calls).toEqual(['begin', 'send', 'offsets', 'commit']);
  });

  it('begins no transaction when there is nothing to commit', async () => {
    const { producer, events, transaction } = setup();
    const a = entry('0_0', [], [{ topic: 'in', partition: 0, offset: 5 }], events);
    await commitInThreadTransaction(transaction, [a], [a], { groupMetadata: () => member });
    expect(producer.calls).toEqual([]);
  });

  it('refuses to commit without a membership (CommitFailedError), leaving the tasks uncommitted', async () => {
    const { producer, eos, events, transaction } = setup();
    await eos.send([]);
    const a = entry('0_0', [{ topic: 'in', partition: 0, offset: 5 }], [], events);
    const refused = await commitInThreadTransaction(transaction, [a], [a], {
      groupMetadata: () => undefined,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CommitFailedError);
    expect(refused).toMatchObject({ code: 'COMMIT_FAILED', groupId: 'app' });
    expect(producer.calls).toEqual(['begin', 'send']);
    expect(events).toEqual(['flushed']);
  });

  it('leaves the tasks uncommitted when the coordinator refuses the generation', async () => {
    const { producer, eos, events, transaction } = setup();
    await eos.send([]);
    producer.refuseOffsets = new CommitFailedError('app', {
      cause: new Error('ILLEGAL_GENERATION'),
    });
    const a = entry('0_0', [{ topic: 'in', partition: 0, offset: 5 }], [], events);
    await expect(
      commitInThreadTransaction(transaction, [a], [a], { groupMetadata: () => member }),
    ).rejects.toBe(producer.refuseOffsets);
    expect(events).toEqual(['flushed']);
    expect(eos.inTransaction).toBe(true);
    expect(await eos.abort()).toBe(true);
    expect(producer.calls).toEqual(['begin', 'send', 'abort']);
    expect(await eos.abort()).toBe(false);
  });
});
