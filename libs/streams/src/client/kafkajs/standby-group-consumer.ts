// The standby manager's fallback consumer: a consumer of a throwaway group following the standby
// changelog partitions, for a kafkajs whose reader by assignment cannot be made.
// kafkajs only: @platformatic/kafka always reads by assignment and never comes here.
import type { Consumer, KafkaMessage } from 'kafkajs';
import { throwawayGroupConsumer, type ThrowawayGroupClient } from './throwaway-group-consumer';

/** One batch the consumer fetched. */
export interface StandbyGroupBatch {
  readonly topic: string;
  readonly partition: number;
  readonly messages: readonly KafkaMessage[];
  /** The offset of the batch's last record (control records included). */
  readonly lastOffset: number;
}

/** What a {@link StandbyGroupConsumer} follows, and whom it tells. */
export interface StandbyGroupConsumerOptions {
  /** The throwaway group (never committing); the caller deletes it after `disconnect()`. */
  readonly groupId: string;
  /** The partitions to follow, by topic. */
  readonly assignment: Record<string, number[]>;
  /** Applies one fetched batch. */
  onBatch(batch: StandbyGroupBatch): Promise<void>;
  /** The consumer crashed on an error kafkajs does not restart it after: replace it. */
  onCrash(error: Error): void;
}

/**
 * A consumer of a throwaway group whose assigner gives it exactly the standby changelog
 * partitions, from the positions given to {@link start}; it waits at most 250 ms per fetch.
 */
export class StandbyGroupConsumer {
  private readonly consumer: Consumer;

  constructor(
    client: ThrowawayGroupClient,
    private readonly options: StandbyGroupConsumerOptions,
  ) {
    this.consumer = throwawayGroupConsumer(client, options.assignment, {
      groupId: options.groupId,
      maxWaitTimeInMs: 250,
      retry: { retries: 10 },
    });
    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      // kafkajs restarts a consumer after a retriable error by itself; after any other error it
      // stays stopped, and the standbys would silently stop following their changelogs.
      if (payload.restart) return;
      options.onCrash(payload.error);
    });
  }

  /**
   * Joins the group and reads each partition from its offset in `positions`.
   *
   * @throws the consumer's error when it cannot connect, subscribe or run: `disconnect()` it,
   *   and start a new one later.
   */
  async start(
    positions: readonly { topic: string; partition: number; offset: number }[],
  ): Promise<void> {
    const consumer = this.consumer;
    await consumer.connect();
    await consumer.subscribe({ topics: Object.keys(this.options.assignment), fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: ({ batch }) =>
        this.options.onBatch({
          topic: batch.topic,
          partition: batch.partition,
          messages: batch.messages,
          lastOffset: Number(batch.lastOffset()),
        }),
    });
    for (const p of positions)
      consumer.seek({ topic: p.topic, partition: p.partition, offset: String(p.offset) });
  }

  /** Leaves the group; never throws (a consumer that cannot leave is dropped). */
  async disconnect(): Promise<void> {
    await this.consumer.disconnect().catch(() => undefined);
  }
}
